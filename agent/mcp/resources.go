package mcp

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Resource is a resource a server lists (resources/list) or a tool's result
// links to (resource_link): what the servers list, `mcp resources` and an
// attachment show of it. Everything in it came from the server.
type Resource struct {
	Server      string `json:"server"`
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	Size        int64  `json:"size,omitempty"`
}

// Listing bounds: a server's resources and prompts are read a page at a
// time, at most listPages pages and listMax items, against a server that
// never stops paging.
const (
	listPages = 20
	listMax   = 500
)

// listPaged reads pages through page (given the cursor, it returns the
// page's items and the next cursor) within the listing bounds.
func listPaged[T any](page func(cursor string) ([]T, string, error)) ([]T, error) {
	var out []T
	cursor := ""
	for range listPages {
		items, next, err := page(cursor)
		if err != nil {
			return out, err
		}
		out = append(out, items[:min(len(items), listMax-len(out))]...)
		if next == "" || len(out) == listMax {
			break
		}
		cursor = next
	}
	return out, nil
}

// listResources reads a server's resources, when it declares any.
func (s *server) listResources(ctx context.Context, cs *sdk.ClientSession) ([]Resource, error) {
	if res := cs.InitializeResult(); res == nil || res.Capabilities == nil || res.Capabilities.Resources == nil {
		return nil, nil
	}
	return listPaged(func(cursor string) ([]Resource, string, error) {
		page, err := cs.ListResources(ctx, &sdk.ListResourcesParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		var out []Resource
		for _, r := range page.Resources {
			if r != nil {
				out = append(out, Resource{Server: s.cfg.Name, URI: r.URI, Name: r.Name, Title: r.Title,
					Description: r.Description, MIMEType: r.MIMEType, Size: r.Size})
			}
		}
		return out, page.NextCursor, nil
	})
}

// maxLinks bounds the resource links kept of one result.
const maxLinks = 20

// linkOf is a resource_link of a tool's result.
func linkOf(server string, l *sdk.ResourceLink) Resource {
	r := Resource{Server: server, URI: l.URI, Name: l.Name, Title: l.Title, Description: l.Description, MIMEType: l.MIMEType}
	if l.Size != nil {
		r.Size = *l.Size
	}
	return r
}

// ReadResource reads a connected server's resource as text for a model:
// its text cut at limit bytes on a character boundary (truncated says
// so), binary contents as one line naming their type and size, never
// their bytes; mime is the first contents' type.
func (m *Manager) ReadResource(ctx context.Context, server, uri string, limit int) (text, mime string, truncated bool, err error) {
	s, cs, err := m.connected(server)
	if err != nil {
		return "", "", false, err
	}
	res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
	if err != nil {
		return "", "", false, s.cfg.Secrets.hideErr(fmt.Errorf("MCP server %s cannot read %s: %w", server, uri, err))
	}
	var parts []string
	for _, c := range res.Contents {
		switch {
		case c == nil:
			continue
		case c.Blob != nil:
			parts = append(parts, fmt.Sprintf("[binary content %s, %s, %d bytes: not included]", c.URI, cmp.Or(c.MIMEType, "no type given"), len(c.Blob)))
		default:
			parts = append(parts, c.Text)
		}
		mime = cmp.Or(mime, c.MIMEType)
	}
	text, truncated = bound(strings.Join(parts, "\n"), limit)
	return text, mime, truncated, nil
}
