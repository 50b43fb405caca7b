package gpukernels_test

// This file holds the PTX reading every PTX test of the package shares
// (ptxFunctions, ptxInstructions, countOps, ptxVariables), so that a test
// can hold a claim about the instructions a kernel executes, not only that
// it compiles (gputest.CompileUnits compiles them).

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// ptxFunction is one function of a PTX module: a kernel (.entry) or a
// device function clang did not inline (.func).
type ptxFunction struct {
	// Name is the mangled name.
	Name string
	// Entry is set for a kernel.
	Entry bool
	// Body is the text between the function's outer braces.
	Body string
}

// reFunction finds the start of a function definition; a declaration ends
// with a semicolon before its body would start and is skipped.
var reFunction = regexp.MustCompile(`(?m)^(?:\.visible |\.weak |\.extern )?\.(entry|func)\s+(?:\([^)]*\)\s*)?([\w$]+)`)

// ptxFunctions splits a PTX module into its function definitions, in
// order.
func ptxFunctions(t testing.TB, ptx string) []ptxFunction {
	t.Helper()
	var fs []ptxFunction
	for _, loc := range reFunction.FindAllStringSubmatchIndex(ptx, -1) {
		rest := ptx[loc[1]:]
		// The body starts at the first brace outside the parameter list;
		// a semicolon there first makes the text a declaration.
		open, paren := -1, 0
	scan:
		for i := range len(rest) {
			switch rest[i] {
			case '(':
				paren++
			case ')':
				paren--
			case ';':
				if paren == 0 {
					break scan
				}
			case '{':
				if paren == 0 {
					open = i
					break scan
				}
			}
		}
		if open < 0 {
			continue
		}
		depth, end := 0, -1
		for i := open; i < len(rest) && end < 0; i++ {
			switch rest[i] {
			case '{':
				depth++
			case '}':
				depth--
				if depth == 0 {
					end = i
				}
			}
		}
		require.GreaterOrEqual(t, end, 0, "function %s has no closing brace", ptx[loc[4]:loc[5]])
		fs = append(fs, ptxFunction{
			Name:  ptx[loc[4]:loc[5]],
			Entry: ptx[loc[2]:loc[3]] == "entry",
			Body:  rest[open+1 : end],
		})
	}
	return fs
}

// ptxFunctionNamed returns the one function whose mangled name contains
// every part.
func ptxFunctionNamed(t testing.TB, ptx string, parts ...string) ptxFunction {
	t.Helper()
	var found []ptxFunction
	for _, f := range ptxFunctions(t, ptx) {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(f.Name, p)
		}
		if all {
			found = append(found, f)
		}
	}
	require.Len(t, found, 1, "functions named with %q", parts)
	return found[0]
}

// ptxInstruction is one instruction of a PTX body.
type ptxInstruction struct {
	// Guard is the guard predicate, such as "%p1" or "!%p1"; empty when
	// the instruction is not guarded.
	Guard string
	// Op is the opcode with its modifiers, such as "shfl.sync.up.b32".
	Op string
	// Args are the operands, as written: "%r5|%p1", "[%rd4]", "1".
	Args []string
}

// reLabel matches a label line such as "LBB1_2:" or "$L__BB0_3:".
var reLabel = regexp.MustCompile(`^[\w$]+:$`)

// ptxInstructions returns the instructions of a function body in order;
// declarations (.reg, .local, .shared …), labels, braces of inline-assembly
// scopes and comments are left out.
func ptxInstructions(body string) []ptxInstruction {
	var is []ptxInstruction
	for _, stmt := range strings.Split(stripPTXComments(body), ";") {
		stmt = strings.TrimSpace(strings.NewReplacer("{", " ", "}", " ").Replace(stmt))
		for {
			// Labels share a statement with the instruction that follows.
			first, rest, _ := strings.Cut(stmt, "\n")
			if !reLabel.MatchString(strings.TrimSpace(first)) {
				break
			}
			stmt = strings.TrimSpace(rest)
		}
		if stmt == "" || strings.HasPrefix(stmt, ".") {
			continue
		}
		var in ptxInstruction
		if strings.HasPrefix(stmt, "@") {
			guard, rest, _ := strings.Cut(stmt, " ")
			in.Guard, stmt = guard[1:], strings.TrimSpace(rest)
		}
		op, rest, _ := strings.Cut(strings.Join(strings.Fields(stmt), " "), " ")
		in.Op = op
		if rest != "" {
			for a := range strings.SplitSeq(rest, ",") {
				in.Args = append(in.Args, strings.TrimSpace(a))
			}
		}
		is = append(is, in)
	}
	return is
}

// stripPTXComments removes // and /* */ comments.
func stripPTXComments(s string) string {
	s = regexp.MustCompile(`(?s)/\*.*?\*/`).ReplaceAllString(s, "")
	return regexp.MustCompile(`//[^\n]*`).ReplaceAllString(s, "")
}

// countOps returns the number of instructions whose opcode starts with
// one of the prefixes, such as "shfl.sync" or "ld.const"; a prefix that
// names whole opcodes only ("add.") cannot match "addc".
func countOps(is []ptxInstruction, prefixes ...string) int {
	n := 0
	for _, in := range is {
		for _, p := range prefixes {
			if strings.HasPrefix(in.Op, p) {
				n++
				break
			}
		}
	}
	return n
}

// ptxVariable is a module-scope variable of a PTX module.
type ptxVariable struct {
	// Space is the state space: "const", "global" or "shared".
	Space string
	// Name is the mangled name.
	Name string
	// Bytes is the size; 0 for an extern array of unknown size.
	Bytes int
}

// reVariable matches a module-scope variable: its space, element type,
// name and element count.
var reVariable = regexp.MustCompile(`(?m)^(?:\.visible |\.global |\.extern |\.weak )*\.(const|global|shared)\s+(?:\.align \d+\s+)?\.([bsuf])(\d+)\s+([\w$]+)((?:\[\d*\])*)`)

// ptxVariables returns the module-scope variables of a PTX module, in
// order, with their sizes.
func ptxVariables(t testing.TB, ptx string) []ptxVariable {
	t.Helper()
	var vs []ptxVariable
	for _, m := range reVariable.FindAllStringSubmatch(ptx, -1) {
		bits, err := strconv.Atoi(m[3])
		require.NoError(t, err)
		n := 1
		for dim := range strings.SplitSeq(strings.Trim(m[5], "[]"), "][") {
			if m[5] == "" {
				break
			}
			if dim == "" {
				n = 0
				break
			}
			k, err := strconv.Atoi(dim)
			require.NoError(t, err)
			n *= k
		}
		vs = append(vs, ptxVariable{Space: m[1], Name: m[4], Bytes: n * bits / 8})
	}
	return vs
}

// String returns the variable as ".const kTable: 12096 bytes".
func (v ptxVariable) String() string {
	return fmt.Sprintf(".%s %s: %d bytes", v.Space, v.Name, v.Bytes)
}

// TestPTXReader checks the PTX reader on a module that has what clang
// writes: tables in .const and .global, an extern shared array, a kernel,
// a device function with a return value, a declaration, labels, guards and
// an inline-assembly scope.
func TestPTXReader(t *testing.T) {
	const ptx = `//
// Generated by LLVM NVPTX Back-End
//

.version 7.0
.target sm_80
.address_size 64

	// .globl	_Z1WPi
.extern .shared .align 16 .b8 kernel_shared[];
.const .align 2 .b8 kTable[12096] = {95, 8, 62};
.global .align 2 .b16 kCells[2048];
.visible .global .align 4 .u32 kCounter;
.extern .func  (.param .b32 func_retval0) vprintf
(
	.param .b64 vprintf_param_0
)
;
.visible .func  (.param .b32 func_retval0) _Z3Addii(
	.param .b32 _Z3Addii_param_0
)
{
	.reg .b32 	%r<3>;

	ld.param.u32 	%r1, [_Z3Addii_param_0];
	add.s32 	%r2, %r1, 1;
	st.param.b32 	[func_retval0+0], %r2;
	ret;

}
.visible .entry _Z1WPi(
	.param .u64 _Z1WPi_param_0
)
.maxntid 256, 1, 1
{
	.reg .pred 	%p<6>;
	.reg .b32 	%r<20>;

	mov.u32 %r1, %laneid;
	// begin inline asm
	{ .reg .pred p; .reg .b32 r;
	shfl.sync.up.b32 r|p, %r1, 1, 0, -1;
	@p add.s32 r, r, %r1;
	mov.b32 %r2, r; }
	// end inline asm
	setp.eq.s32 	%p1, %r2, 0;
	@%p1 bra 	LBB1_2;
	ld.const.u8 	%r3, [kTable];
LBB1_2:
	selp.b32 	%r6, 0, %r5, %p1;
	ret;

}
`
	fs := ptxFunctions(t, ptx)
	require.Len(t, fs, 2)
	require.Equal(t, "_Z3Addii", fs[0].Name)
	require.False(t, fs[0].Entry)
	require.Equal(t, "_Z1WPi", fs[1].Name)
	require.True(t, fs[1].Entry)
	require.Equal(t, "_Z1WPi", ptxFunctionNamed(t, ptx, "W").Name)

	is := ptxInstructions(fs[1].Body)
	var ops []string
	for _, in := range is {
		ops = append(ops, in.Op)
	}
	require.Equal(t, []string{"mov.u32", "shfl.sync.up.b32", "add.s32", "mov.b32", "setp.eq.s32", "bra", "ld.const.u8", "selp.b32", "ret"}, ops)
	require.Equal(t, ptxInstruction{Op: "shfl.sync.up.b32", Args: []string{"r|p", "%r1", "1", "0", "-1"}}, is[1])
	require.Equal(t, "p", is[2].Guard)
	require.Equal(t, "%p1", is[5].Guard)
	require.Equal(t, 1, countOps(is, "shfl.sync"))
	require.Equal(t, 2, countOps(is, "setp.", "selp."))
	require.Equal(t, 1, countOps(is, "ld.const"))
	require.Equal(t, 1, countOps(is, "add."), "add. does not count addc or the .reg lines")

	require.Equal(t, []ptxVariable{
		{Space: "shared", Name: "kernel_shared", Bytes: 0},
		{Space: "const", Name: "kTable", Bytes: 12096},
		{Space: "global", Name: "kCells", Bytes: 4096},
		{Space: "global", Name: "kCounter", Bytes: 4},
	}, ptxVariables(t, ptx))
}
