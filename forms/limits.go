package forms

// Limits of docs/input-requests.md. They are constants so that the host, the CLI and the
// tests agree on them without a lookup.
const (
	MaxFields  = 32
	MaxString  = 4096 // runes, for any string of a declaration or an answer
	MaxOptions = 100  // per field
	// MaxServerOptions is the options of a field of an MCP server's
	// schema (docs/mcp.md): country and time-zone lists run to hundreds.
	MaxServerOptions = 5000
	MaxContext       = 16384 // runes of compact JSON
	MaxRequestKey    = 128
	MaxDepth         = 32 // JSON nesting of any input
	MaxNameLength    = 64

	DefaultReplySize = 65536
	MaxReplySize     = 1 << 20

	DefaultQuestionsPerRun = 8
	MaxQuestionsPerRun     = 32

	// MaxInputSize bounds the raw bytes of a declaration. The largest legal
	// declaration is far smaller in practice; the bound keeps a hostile input
	// from costing more than a bounded scan.
	MaxInputSize = 4 << 20

	// maxRefHops bounds $ref chains in an imported schema.
	maxRefHops = 32
)

// Formats lists the text formats a field may declare.
var Formats = []string{"email", "uri", "date", "date-time"}

// LimitsInfo is the limits part of input_capabilities.
type LimitsInfo struct {
	Fields           [2]int `json:"fields"`
	StringLength     int    `json:"stringLength"`
	Options          [2]int `json:"options"`
	ContextLength    int    `json:"contextLength"`
	RequestKeyLength int    `json:"requestKeyLength"`
	NameLength       int    `json:"nameLength"`
	Depth            int    `json:"depth"`
	InputSize        int    `json:"inputSize"`
	ReplySize        int    `json:"replySize"`
	MaxReplySize     int    `json:"maxReplySize"`
	QuestionsPerRun  int    `json:"questionsPerRun"`
	MaxQuestions     int    `json:"maxQuestionsPerRun"`
}

// CapabilitiesInfo is the static part of input_capabilities; the host adds
// its templates and its configured policy values.
type CapabilitiesInfo struct {
	FieldTypes  []FieldType `json:"fieldTypes"`
	SourceKinds []string    `json:"sourceKinds"`
	Formats     []string    `json:"formats"`
	Limits      LimitsInfo  `json:"limits"`
	Features    []string    `json:"features"`
	Templates   []string    `json:"templates"`
}

// Capabilities returns the static capabilities. Slices are fresh copies so
// the caller may change them.
func Capabilities() CapabilitiesInfo {
	return CapabilitiesInfo{
		FieldTypes:  append([]FieldType(nil), FieldTypes...),
		SourceKinds: append([]string(nil), SourceKinds...),
		Formats:     append([]string(nil), Formats...),
		Limits: LimitsInfo{
			Fields:           [2]int{1, MaxFields},
			StringLength:     MaxString,
			Options:          [2]int{1, MaxOptions},
			ContextLength:    MaxContext,
			RequestKeyLength: MaxRequestKey,
			NameLength:       MaxNameLength,
			Depth:            MaxDepth,
			InputSize:        MaxInputSize,
			ReplySize:        DefaultReplySize,
			MaxReplySize:     MaxReplySize,
			QuestionsPerRun:  DefaultQuestionsPerRun,
			MaxQuestions:     MaxQuestionsPerRun,
		},
		Features: []string{
			"prefill", "supplied", "context", "expiresAt", "drafts",
			"partialAnswers", "proposals", "schemaImport", "localRefs",
			"optionLabels", "pattern",
		},
		Templates: []string{},
	}
}
