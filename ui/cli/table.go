package cli

import (
	"context"
	"io"

	"github.com/spf13/cobra"
)

// Command is one subcommand: everything the parser, the help and the
// dispatcher know about it. Adding a command is one entry in commands (and
// its run func); usage, `followup help CMD`, `CMD --help`, argument and
// flag checks and dispatch all read the entry.
type Command struct {
	// Name is the word after followup, or two words for a command of a
	// group ("mcp list"): `followup help mcp` lists the group.
	Name string
	// Args are the positional placeholders, in order; "[NAME]" is optional
	// (optional ones come last), "[NAME...]" takes any number.
	Args []string
	// Flags are the command's own flags; the global ones are always
	// accepted.
	Flags []Flag
	// Summary is one line, lower case, no full stop; it fits the help's
	// column (54 characters) so the list reads one command a line.
	Summary string
	// Group is the heading help lists the command under; a group's
	// commands stand together in the table.
	Group string
	// Example is one command line a user can copy.
	Example string
	// NeedsDB opens the database (and the provider) before Run; without it
	// Call.Service is nil.
	NeedsDB bool
	// LongLived marks a command that runs until it is stopped (mcp serve).
	// Every other command reads the database once and exits, so its
	// readers map the file (chat.Options.ShortLived); a long-lived one
	// keeps a bounded page cache instead, as the chat screen does.
	LongLived bool
	// Check is for rules about the arguments the table cannot say (nil when
	// there are none); its error is a usage error.
	Check func(a Args) error
	// Run does the command; the error it returns is printed as the
	// command's result (exit 1), a *UsageError as a usage error (exit 2).
	Run func(ctx context.Context, c *Call) error
}

// Flag is a command-line flag.
type Flag struct {
	Name string // without dashes
	// Value is the placeholder of a flag that takes a value ("ID"); empty
	// for a switch.
	Value string
	Help  string
	// Required flags must be given.
	Required bool
	// Choice names a set of switches of which exactly one is given
	// (--accept|--reject).
	Choice string
	// Repeat flags may be given more than once (values split by NUL in Args).
	Repeat bool
}

// Call is one run of a command: its parsed arguments, the service (when
// the command NeedsDB) and where it reads and writes.
type Call struct {
	Env
	Args
	out *printer
	cmd *cobra.Command
}

// OK prints a successful result: v as the JSON document's keys with
// --json, else what text writes.
func (c *Call) OK(v any, text func(w io.Writer)) { c.out.ok(v, text) }

var (
	flagChat      = Flag{Name: "chat", Value: "ID", Help: "the chat to send to (default: a new chat)"}
	flagCommandID = Flag{Name: "command-id", Value: "ID", Help: "an id of your choice; repeating it returns the first result instead of acting twice"}
)

// globalFlags are accepted by every command, before or after it.
var globalFlags = []Flag{
	{Name: "db", Value: "PATH", Help: "database file (env FOLLOWUP_DB; default $XDG_DATA_HOME/followup/followup.db, else ~/.local/share/followup/followup.db)"},
	{Name: "provider", Value: "NAME", Help: "offline (default), openai or anthropic (env FOLLOWUP_PROVIDER)"},
	{Name: "model", Value: "NAME", Help: "model name (env FOLLOWUP_MODEL)"},
	{Name: "questions", Value: "N", Help: "questions one run may ask, 1-32 (default 8)"},
	{Name: "reply-size", Value: "BYTES", Help: "largest answer accepted, in bytes of JSON, up to 1048576 (default 65536)"},
	flagMCP,
	{Name: "root", Value: "DIR", Repeat: true, Help: "a directory MCP servers may work in, besides the current one (repeatable)"},
	{Name: "json", Help: "print exactly one JSON document on stdout, errors included"},
}

// commands is the command table, in the order help lists it. It is set in
// init because the help command reads it.
var commands []Command

// The groups of the command table, as help heads them.
const (
	groupQuestions = "questions and answers"
	groupRuns      = "runs"
	groupChats     = "chats"
	groupMCP       = "MCP servers and clients"
	groupOther     = "other"
)

func init() {
	commands = []Command{
		{Name: "ask", Group: groupQuestions, Args: []string{"MESSAGE"}, Flags: []Flag{flagChat, flagCommandID, flagNoWait, flagAttach}, NeedsDB: true, Run: ask,
			Summary: "send a message; drive the run until it waits or ends",
			Example: `followup ask "Check deployment"`, Check: nonEmptyArg("the message")},
		{Name: "pending", Group: groupQuestions, Flags: []Flag{{Name: "chat", Value: "ID", Help: "only this chat's requests (default: every active chat's)"}}, NeedsDB: true, Run: pending,
			Summary: "list open requests: fields, partial values, missing",
			Example: `followup pending --json`},
		{Name: "show", Group: groupQuestions, Args: []string{"REQUEST_ID"}, NeedsDB: true, Run: show,
			Summary: "one request: answer, deliveries, proposals, revisions",
			Example: `followup show rq_0123456789abcdef`},
		{Name: "answer", Group: groupQuestions, Args: []string{"REQUEST_ID"}, NeedsDB: true, Run: answer,
			Flags: []Flag{
				{Name: "values-json", Value: "JSON", Required: true, Help: `the values, a JSON object of field name to value ('{"environment":"staging"}'); a partial answer keeps the request pending`},
				{Name: "digest", Value: "D", Help: "the digest you answered (12 or more hex characters of it, as pending prints it); refused with STALE_TARGET when the request has changed"},
				flagCommandID, flagNoWait,
			},
			Summary: "answer a request and drive its run on", Check: answerCheck,
			Example: `followup answer rq_0123456789abcdef --values-json '{"environment":"staging"}'`},
		{Name: "cancel", Group: groupQuestions, Args: []string{"REQUEST_ID"}, Flags: []Flag{flagCommandID, flagNoWait}, NeedsDB: true, Run: cancel,
			Summary: "cancel one request; the agent is told, the run goes on",
			Example: `followup cancel rq_0123456789abcdef`},
		{Name: "decide", Group: groupQuestions, Args: []string{"PROPOSAL_ID"}, NeedsDB: true, Run: decide,
			Flags: []Flag{
				{Name: "accept", Choice: "decision", Help: "take the change: proposed values fill the draft (send them with answer), a new definition becomes the request's revision"},
				{Name: "reject", Choice: "decision", Help: "keep what you have; the proposal is closed"},
				flagCommandID,
			},
			Summary: "accept or reject a change the agent proposed",
			Example: `followup decide prop_0123456789abcdef --accept`},
		{Name: "stop", Group: groupRuns, Args: []string{"RUN_ID"}, Flags: []Flag{flagCommandID}, NeedsDB: true, Run: stop,
			Summary: "stop a task; its open questions expire",
			Example: `followup stop run_0123456789abcdef`},
		{Name: "resume", Group: groupRuns, Args: []string{"RUN_ID"}, Flags: []Flag{flagNoWait}, NeedsDB: true, Run: resume,
			Summary: "go on with a run after a crash or a failure",
			Example: `followup resume run_0123456789abcdef`},
		{Name: "inspect", Group: groupRuns, Args: []string{"CHAT_OR_RUN_ID"}, NeedsDB: true, Run: inspect,
			Summary: "a chat or a run: state, messages, requests, deliveries",
			Example: `followup inspect ch_0123456789abcdef`},
		{Name: "chats", Group: groupChats, NeedsDB: true, Run: chats, Check: chatsCheck,
			Flags: []Flag{
				{Name: "limit", Value: "N", Help: "chats per page, 1-1000 (default 200)"},
				{Name: "cursor", Value: "C", Help: "start after the page before: its next value (its text ends with the whole command)"},
			},
			Summary: "list the chats, most recent first, a page at a time",
			Example: `followup chats --limit 50`},
		{Name: "archive", Group: groupChats, Args: []string{"CHAT_ID"}, Flags: []Flag{flagCommandID}, NeedsDB: true, Run: lifecycle,
			Summary: "archive a chat: readable, takes no more messages",
			Example: `followup archive ch_0123456789abcdef`},
		{Name: "unarchive", Group: groupChats, Args: []string{"CHAT_ID"}, Flags: []Flag{flagCommandID}, NeedsDB: true, Run: lifecycle,
			Summary: "make an archived chat active again",
			Example: `followup unarchive ch_0123456789abcdef`},
		{Name: "delete", Group: groupChats, Args: []string{"CHAT_ID"}, NeedsDB: true, Run: lifecycle,
			Flags:   []Flag{{Name: "yes", Help: "delete without asking (needed where there is no terminal to ask on, as in a script)"}, flagCommandID},
			Summary: "delete a chat and everything in it",
			Example: `followup delete ch_0123456789abcdef --yes`},
		{Name: "mcp list", Group: groupMCP, NeedsDB: true, Run: mcpList,
			Summary: "the configured MCP servers: state, protocol, tools",
			Example: `followup mcp list --json`},
		{Name: "mcp resources", Group: groupMCP, Args: []string{"[SERVER]"}, NeedsDB: true, Run: mcpResources,
			Summary: "the resources the MCP servers offer to attach",
			Example: `followup mcp resources everything --json`},
		{Name: "mcp prompts", Group: groupMCP, NeedsDB: true, Run: mcpPrompts,
			Summary: "the MCP servers' prompts and their arguments",
			Example: `followup mcp prompts --json`},
		{Name: "mcp prompt", Group: groupMCP, Args: []string{"PROMPT"}, NeedsDB: true, Run: mcpPrompt,
			Flags: []Flag{{Name: "arg", Value: "NAME=VALUE", Repeat: true, Help: "an argument of the prompt (repeatable)"},
				flagChat, flagCommandID, flagNoWait},
			Summary: "send a server's prompt as a message; drive the run",
			Example: `followup mcp prompt everything:args-prompt --arg city=Paris`},
		{Name: "approve", Group: groupMCP, Args: []string{"APPROVAL_ID"}, NeedsDB: true, Run: decideApproval,
			Flags: []Flag{
				{Name: "for-chat", Help: "allow this tool (or this server's sampling) for the rest of the chat: later calls run without asking"},
				flagCommandID, flagNoWait,
			},
			Summary: "allow a pending tool call or sampling request",
			Example: `followup approve ap_0123456789abcdef --for-chat`},
		{Name: "deny", Group: groupMCP, Args: []string{"APPROVAL_ID"}, Flags: []Flag{flagCommandID, flagNoWait}, NeedsDB: true, Run: decideApproval,
			Summary: "refuse a pending tool call or sampling request",
			Example: `followup deny ap_0123456789abcdef`},
		{Name: "mcp serve", Group: groupMCP, NeedsDB: true, LongLived: true, Run: mcpServe, Check: mcpServeCheck,
			Flags: []Flag{{Name: "http", Value: "HOST:PORT", Help: "serve streamable HTTP on this loopback address (127.0.0.1, ::1 or localhost; port 0 picks a free one) instead of stdin and stdout"},
				{Name: "token-file", Value: "FILE", Help: "with --http: the bearer token clients must send, made there on first use (default $XDG_STATE_HOME/followup/mcp-serve-token, else ~/.local/state/followup/mcp-serve-token)"}},
			Summary: "be an MCP server: other agents ask you through it",
			Example: `followup mcp serve --http 127.0.0.1:7390`},
		{Name: "skills", Group: groupOther, Run: skillsList,
			Summary: "the skills the agent may use, and those refused",
			Example: `followup skills --json`},
		{Name: "skills show", Group: groupOther, Args: []string{"NAME"}, Run: skillShow,
			Summary: "one skill's instructions, files and forms",
			Example: `followup skills show supplemental-information`},
		{Name: "validate-input", Group: groupOther, Args: []string{"FILE|-"}, Run: validateInput,
			Summary: "check an input-request file or stdin (no database)",
			Example: `followup validate-input request.json`},
		{Name: "man", Group: groupOther, Args: []string{"[COMMAND...]"}, Run: man,
			Summary: "the manual page of followup or of one command (roff)",
			Example: `followup man answer`},
		{Name: "help", Group: groupOther, Args: []string{"[COMMAND...]"}, Run: help,
			Summary: "the usage of followup or of one command",
			Example: `followup help answer`},
	}
}
