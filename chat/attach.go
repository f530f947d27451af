package chat

import (
	"cmp"
	"context"
	"fmt"

	"followup/agent"
	"followup/agent/mcp"
	"followup/forms"
)

// A message may carry MCP resources the user attached (docs/mcp.md): each
// is read when the message is sent. The transcript shows one line per
// attachment under the message; the model reads, after the message, each
// resource's text bounded at MaxAttachment (a binary one described by its
// type and size, never its bytes).

// MaxAttachment bounds the text of one attached resource, in bytes.
const MaxAttachment = 64 << 10

// AttachmentLine is how an attached resource is named under its message
// and in the composer, on one line.
func AttachmentLine(r mcp.Resource) string {
	return forms.SanitizeLine(fmt.Sprintf("📎 %s (%s · %s, %s)", cmp.Or(r.Title, r.Name, r.URI), r.Server, r.URI,
		cmp.Or(r.MIMEType, "no type given")))
}

// readAttachments reads the attached resources: the lines shown under the
// message, and what the model reads of each.
func (s *Service) readAttachments(ctx context.Context, rs []mcp.Resource) (lines string, texts []string, err error) {
	if len(rs) == 0 {
		return "", nil, nil
	}
	if s.mcp.m == nil {
		return "", nil, errorf(CodeInvalidArgument, "no MCP server is configured: there is no resource to attach")
	}
	if err := s.mcp.m.Wait(ctx); err != nil {
		return "", nil, err
	}
	listed := map[[2]string]mcp.Resource{}
	for _, srv := range s.mcp.m.Status().Servers {
		for _, r := range srv.Resources {
			listed[[2]string{r.Server, r.URI}] = r
		}
	}
	for _, r := range rs {
		if l, ok := listed[[2]string{r.Server, r.URI}]; ok && r.Name == "" {
			r = l // named by its URI alone (the CLI's --attach)
		}
		text, mime, cut, err := s.mcp.m.ReadResource(ctx, r.Server, r.URI, MaxAttachment)
		if err != nil {
			return "", nil, errorf(CodeInvalidArgument, "%v", err)
		}
		r.MIMEType = cmp.Or(r.MIMEType, mime)
		line := AttachmentLine(r)
		if cut {
			line += fmt.Sprintf(" — its first %d KiB", MaxAttachment>>10)
		}
		lines += "\n" + line
		texts = append(texts, fmt.Sprintf("%s%s from MCP server %s, %s]\n%s", agent.AttachedPrefix, r.URI, r.Server,
			cmp.Or(r.MIMEType, "no type given"), text))
	}
	return lines, texts, nil
}
