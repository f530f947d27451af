package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A form asks its fields in the order the server wrote them in
// requestedSchema.properties. The SDK hands a client the schema decoded
// into a map, which forgets that order; the connection still sees the raw
// message. orderConn reads the order of each requestedSchema it passes
// (in elicitation/create requests and in input_required results) and
// keeps it under the schema's canonical JSON, where elicitation() finds it
// again to write the schema back in the server's order.

// maxOrders bounds the orders kept per server: one per question in flight.
const maxOrders = 64

// schemaOrders maps a schema's canonical JSON to its properties' order.
// It also keeps the tools a tools/list result marked task-only
// (execution.taskSupport "required"), which the SDK's Tool drops.
type schemaOrders struct {
	mu    sync.Mutex
	order map[string][]string
	keys  []string // oldest first, for the bound
	tasks map[string]bool
}

// lookTools records which tools of a tools/list page need MCP tasks.
func (o *schemaOrders) lookTools(result json.RawMessage) {
	var page struct {
		Tools []struct {
			Name      string `json:"name"`
			Execution struct {
				TaskSupport string `json:"taskSupport"`
			} `json:"execution"`
		} `json:"tools"`
	}
	if json.Unmarshal(result, &page) != nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.tasks == nil {
		o.tasks = map[string]bool{}
	}
	for _, t := range page.Tools {
		o.tasks[t.Name] = t.Execution.TaskSupport == "required"
	}
}

func (o *schemaOrders) taskOnly(tool string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.tasks[tool]
}

func (o *schemaOrders) remember(raw json.RawMessage) {
	props := propertyOrder(raw)
	if len(props) < 2 {
		return
	}
	key, ok := canonical(raw)
	if !ok {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.order == nil {
		o.order = map[string][]string{}
	}
	if _, seen := o.order[key]; !seen {
		o.keys = append(o.keys, key)
		if len(o.keys) > maxOrders {
			delete(o.order, o.keys[0])
			o.keys = o.keys[1:]
		}
	}
	o.order[key] = props
}

// apply writes raw (a schema the SDK re-encoded) with its properties in
// the order the server sent them, when that order is known.
func (o *schemaOrders) apply(raw json.RawMessage) json.RawMessage {
	key, ok := canonical(raw)
	if !ok {
		return raw
	}
	o.mu.Lock()
	props := o.order[key]
	o.mu.Unlock()
	if props == nil {
		return raw
	}
	return withPropertyOrder(raw, props)
}

// canonical is raw decoded and encoded again: object keys sorted.
func canonical(raw json.RawMessage) (string, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	b, err := json.Marshal(v)
	return string(b), err == nil
}

// propertyOrder lists the keys of raw's "properties" object in order.
func propertyOrder(raw json.RawMessage) []string {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(top["properties"]))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return nil
		}
	}
	return keys
}

// withPropertyOrder re-encodes raw with its properties in order
// (jsonschema writes a schema's PropertyOrder first).
func withPropertyOrder(raw json.RawMessage, order []string) json.RawMessage {
	var s jsonschema.Schema
	if json.Unmarshal(raw, &s) != nil || len(s.Properties) != len(order) {
		return raw
	}
	s.PropertyOrder = order
	out, err := json.Marshal(&s)
	if err != nil {
		return raw
	}
	return out
}

// wireTransport wraps a stdio server's transport: its connection records
// the order of every requestedSchema it reads and moves followup's request
// ids (idshift.go). (An HTTP connection cannot be wrapped — the SDK needs
// its unexported methods — so wireRoundTripper does the same on the HTTP
// requests and responses.)
type wireTransport struct {
	next     sdk.Transport
	orders   *schemaOrders
	discover *discoverWait // handshake.go
}

func (t wireTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.next.Connect(ctx)
	if err != nil {
		return c, err
	}
	return wireConn{c, t.orders, newIDShift(), t.discover}, nil
}

type wireConn struct {
	sdk.Connection
	orders   *schemaOrders
	shift    idShift
	discover *discoverWait
}

// SessionID passes the wrapped connection's on (the SDK asks for it).
func (c wireConn) SessionID() string {
	if h, ok := c.Connection.(interface{ SessionID() string }); ok {
		return h.SessionID()
	}
	return ""
}

func (c wireConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		msg, ours, err := c.discover.read(ctx, c.Connection.Read)
		if err != nil || ours {
			return msg, err
		}
		c.orders.look(msg)
		if msg = c.shift.in(msg); !c.discover.late(msg) {
			return msg, nil
		}
	}
}

func (c wireConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	c.discover.sent(msg)
	return c.Connection.Write(ctx, c.shift.out(msg))
}

// look records the schemas of a question or of an input_required result.
func (o *schemaOrders) look(msg jsonrpc.Message) {
	switch m := msg.(type) {
	case *jsonrpc.Request:
		o.lookRequest(m.Method, m.Params)
	case *jsonrpc.Response:
		o.lookResult(m.Result)
	}
}

func (o *schemaOrders) lookRequest(method string, params json.RawMessage) {
	if method != "elicitation/create" {
		return
	}
	var p struct {
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}
	if json.Unmarshal(params, &p) == nil && len(p.RequestedSchema) > 0 {
		o.remember(p.RequestedSchema)
	}
}

func (o *schemaOrders) lookResult(result json.RawMessage) {
	if bytes.Contains(result, []byte(`"tools"`)) && bytes.Contains(result, []byte(`"inputSchema"`)) {
		o.lookTools(result)
		return
	}
	if len(result) == 0 || !bytes.Contains(result, []byte(`"inputRequests"`)) {
		return
	}
	var res struct {
		InputRequests map[string]struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		} `json:"inputRequests"`
	}
	if json.Unmarshal(result, &res) != nil {
		return
	}
	for _, r := range res.InputRequests {
		o.lookRequest(r.Method, r.Params)
	}
}
