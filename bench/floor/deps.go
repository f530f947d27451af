//go:build deps

package main

// Built with -tags deps, the floor also links the libraries followup must
// use (docs/behaviour.md) without calling them: what linking and initialising
// them costs before any work of followup's own (bench/run.sh).
import (
	_ "github.com/anthropics/anthropic-sdk-go/v2"
	_ "github.com/sashabaranov/go-openai"
	_ "modernc.org/sqlite"
)
