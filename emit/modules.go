package emit

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/prefixgen/prefixgen/network"
)

// verilogModule matches a module declaration's name once comments are gone.
// An attribute, (* … *), may stand right before it.
var verilogModule = regexp.MustCompile(`(?m)(?:^|[;\s)])(?:macro)?module\s+([A-Za-z_][A-Za-z0-9_$]*)`)

// verilogComment matches a Verilog comment, line or block.
var verilogComment = regexp.MustCompile(`(?s)//[^\n]*|/\*.*?\*/`)

// ModuleNames returns the names of the modules src declares, in order, as
// a plain reading finds them (comments skipped; no preprocessing).
func ModuleNames(src []byte) []string {
	text := verilogComment.ReplaceAll(src, []byte(" "))
	var names []string
	for _, m := range verilogModule.FindAllSubmatch(text, -1) {
		names = append(names, string(m[1]))
	}
	return names
}

// TopModuleError is the error of TopModule: the top module asked for is
// not one the Verilog declares, or is not a plain identifier. Its message
// has no package prefix, so that each caller can give its own.
type TopModuleError struct{ Reason string }

func (e *TopModuleError) Error() string { return e.Reason }

// TopModule returns the module of src to use as the top: top itself when
// src declares it, or with top empty the one module src declares. A top
// that is not a plain identifier (a letter or _, then letters, digits or
// _), that src does not declare, or an empty top when src declares other
// than one module, is a *TopModuleError.
func TopModule(src []byte, top string) (string, error) {
	if HasByteOrderMark(src) {
		return "", &TopModuleError{"the Verilog starts with a UTF-8 byte-order mark (EF BB BF), which Yosys reads as no Verilog at all: allowed the file saved as UTF-8 without one"}
	}
	modules := ModuleNames(src)
	if top == "" {
		if len(modules) != 1 {
			return "", &TopModuleError{fmt.Sprintf("the Verilog declares %d modules (%s): allowed a top module named, or a file of one module", len(modules), listOrNone(modules))}
		}
		top = modules[0]
	}
	if !PlainIdentifier(top) {
		return "", &TopModuleError{fmt.Sprintf("top module %s: allowed a letter or _, then letters, digits or _", network.Quote(top))}
	}
	if !slices.Contains(modules, top) {
		return "", &TopModuleError{fmt.Sprintf("the Verilog declares no module %s: allowed %s", network.Cut(top), listOrNone(modules))}
	}
	return top, nil
}

// HasByteOrderMark reports whether src starts with the UTF-8 byte-order
// mark (EF BB BF), which Yosys 0.23's Verilog reader takes for the end of
// the file: it reads no module of it, and says nothing.
func HasByteOrderMark(src []byte) bool { return bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) }

// PlainIdentifier reports whether s is a Verilog identifier that needs no
// escaping and is safe in a tool's script: a letter or _, then letters,
// digits or _, at most 1024 bytes.
func PlainIdentifier(s string) bool {
	if s == "" || len(s) > 1024 {
		return false
	}
	for i, r := range s {
		letter := r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// listOrNone joins names with ", ", each cut (network.Cut), the first ten of
// more told and the rest counted, or says "none".
func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	const most = 10
	told := make([]string, 0, min(len(names), most))
	for _, n := range names[:min(len(names), most)] {
		told = append(told, network.Cut(n))
	}
	list := strings.Join(told, ", ")
	if len(names) > most {
		list += fmt.Sprintf(" and %d more", len(names)-most)
	}
	return list
}

// vhdlEntity matches an entity declaration's name once comments are gone:
// a basic identifier (extended identifiers are not read).
var vhdlEntity = regexp.MustCompile(`(?im)(?:^|[;\s])entity\s+([A-Za-z][A-Za-z0-9_]*)\s+is\b`)

// vhdlCommentText matches a VHDL comment: -- to the end of the line, or a
// VHDL-2008 block comment.
var vhdlCommentText = regexp.MustCompile(`(?s)--[^\n]*|/\*.*?\*/`)

// EntityNames returns the names of the entities src declares, in order and
// in lower case (VHDL ignores case), as a plain reading finds them
// (comments skipped).
func EntityNames(src []byte) []string {
	text := vhdlCommentText.ReplaceAll(src, []byte(" "))
	var names []string
	for _, m := range vhdlEntity.FindAllSubmatch(text, -1) {
		names = append(names, strings.ToLower(string(m[1])))
	}
	return names
}

// TopEntity returns the entity of src to use as the top, in lower case: top
// itself when src declares it (in any case), or with top empty the one
// entity src declares. A top that is not a VHDL basic identifier (a
// letter, then letters, digits and single underscores, not ending in one),
// that src does not declare, or an empty top when src declares other than
// one entity, is a *TopModuleError.
func TopEntity(src []byte, top string) (string, error) {
	entities := EntityNames(src)
	if top == "" {
		if len(entities) != 1 {
			return "", &TopModuleError{fmt.Sprintf("the VHDL declares %d entities (%s): allowed a top entity named, or a file of one entity", len(entities), listOrNone(entities))}
		}
		return entities[0], nil
	}
	if !basicIdentifier(top) {
		return "", &TopModuleError{fmt.Sprintf("top entity %s: allowed a letter, then letters, digits and single underscores", network.Quote(top))}
	}
	top = strings.ToLower(top)
	if !slices.Contains(entities, top) {
		return "", &TopModuleError{fmt.Sprintf("the VHDL declares no entity %s: allowed %s", network.Cut(top), listOrNone(entities))}
	}
	return top, nil
}

// basicIdentifier reports whether s is a VHDL basic identifier: a letter,
// then letters, digits and single underscores, not ending in one, at most
// 1024 bytes.
func basicIdentifier(s string) bool {
	if s == "" || len(s) > 1024 || strings.Contains(s, "__") || strings.HasSuffix(s, "_") {
		return false
	}
	for i, r := range s {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || r != '_' && (r < '0' || r > '9')) {
			return false
		}
	}
	return true
}
