package main

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every integer flag reads decimal digits only: a leading zero is not
// octal, and Go's other literals (0x, 0b, 0o, _) are refused.
func TestDecimalFlags(t *testing.T) {
	same := []struct {
		name       string
		args, want []string
	}{
		{"gen -n 010 is 10", []string{"gen", "-t", "sklansky", "-n", "010", "-f", "json"}, []string{"gen", "-t", "sklansky", "-n", "10", "-f", "json"}},
		{"gen --width=+8", []string{"gen", "-t", "sklansky", "--width=+8"}, []string{"gen", "-t", "sklansky", "-n", "8"}},
		{"compare -n 08", []string{"compare", "-n", "08", "-f", "csv"}, []string{"compare", "-n", "8", "-f", "csv"}},
		{"verify --vectors 0100 --seed 07", []string{"verify", "-t", "sklansky", "-n", "4", "--vectors", "0100", "--seed", "07"},
			[]string{"verify", "-t", "sklansky", "-n", "4", "--vectors", "100", "--seed", "7"}},
		{"cuda emit --width 016", []string{"cuda", "emit", "-t", "sklansky", "--width", "016"}, []string{"cuda", "emit", "-t", "sklansky", "--width", "16"}},
		{"optimize -d 04", []string{"optimize", "-n", "8", "-d", "04", "-f", "json"}, []string{"optimize", "-n", "8", "-d", "4", "-f", "json"}},
	}
	for _, tt := range same {
		t.Run(tt.name, func(t *testing.T) {
			status, out, errOut := prefixgen(tt.args...)
			require.Equal(t, 0, status, errOut)
			_, want, _ := prefixgen(tt.want...)
			assert.Equal(t, want, out)
		})
	}
	refused := []struct {
		args []string
		want string
	}{
		{[]string{"gen", "-t", "sklansky", "-n", "0x10"}, `prefixgen gen: invalid value "0x10" for flag -n: want a whole number in decimal digits (see prefixgen gen --help)`},
		// Long input is echoed cut after 40 characters.
		{[]string{"gen", "-t", "sklansky", "-n", strings.Repeat("x", 100)}, `prefixgen gen: invalid value "` + strings.Repeat("x", 40) + `…" for flag -n: want a whole number (see prefixgen gen --help)`},
		{[]string{"gen", "-t", "sklansky", "-n", "8", "--" + strings.Repeat("x", 100)}, `prefixgen gen: unknown flag --` + strings.Repeat("x", 40) + `… (see prefixgen gen --help)`},
		{[]string{"gen", "-t", "sklansky", "-n", "8", "-f", "verilog", "--op", strings.Repeat("x", 100)}, `prefixgen gen: --op: unknown operation "` + strings.Repeat("x", 40) + `…": allowed add, sub, addsub, compare`},
		{[]string{"gen", "-t", "sklansky", "-n", "8", "-f", "verilog", "--flags", strings.Repeat("x", 100)}, `prefixgen gen: --flags: unknown flag "` + strings.Repeat("x", 40) + `…": allowed carry, overflow, zero, negative, or none`},
		{[]string{"gen", "-t", "sklansky", "-n", "0b101"}, `prefixgen gen: invalid value "0b101" for flag -n: want a whole number in decimal digits (see prefixgen gen --help)`},
		{[]string{"stats", "-t", "sklansky", "--width", "1_0"}, `prefixgen stats: invalid value "1_0" for flag --width: want a whole number in decimal digits (see prefixgen stats --help)`},
		{[]string{"compare", "-n", "0o10"}, `prefixgen compare: invalid value "0o10" for flag -n: want a whole number in decimal digits (see prefixgen compare --help)`},
		{[]string{"verify", "-t", "sklansky", "-n", "4", "--vectors", "0x10"}, `prefixgen verify: invalid value "0x10" for flag --vectors: want a whole number in decimal digits (see prefixgen verify --help)`},
		{[]string{"verify", "-t", "sklansky", "-n", "4", "--seed", "0x1"}, `prefixgen verify: invalid value "0x1" for flag --seed: want a whole number in decimal digits (see prefixgen verify --help)`},
		{[]string{"optimize", "-n", "8", "--max-depth", "0x3"}, `prefixgen optimize: invalid value "0x3" for flag --max-depth: want a whole number in decimal digits (see prefixgen optimize --help)`},
		{[]string{"check", "-t", "sklansky", "-n", "8", "-j", "0x2"}, `prefixgen check: invalid value "0x2" for flag -j: want a whole number in decimal digits (see prefixgen check --help)`},
		{[]string{"cuda", "emit", "-t", "sklansky", "--width", "0x8"}, `prefixgen cuda emit: invalid value "0x8" for flag --width: want a whole number in decimal digits (see prefixgen cuda emit --help)`},
		{[]string{"cuda", "bench", "-t", "sklansky", "-N", "0x8"}, `prefixgen cuda bench: --items: size "0x8" is not a number, 2^K or 2^K±C from 1 to 2^40`},
		{[]string{"explore", "-n", "8", "--max-fanout", "0x3"}, `prefixgen explore: invalid value "0x3" for flag --max-fanout: want a whole number in decimal digits (see prefixgen explore --help)`},
	}
	for _, tt := range refused {
		requireRefused(t, tt.args, tt.want)
	}
}

// A bad value of a flag gets the message of the flag's type, with its long
// name spelled with two dashes.
func TestFlagValueMessages(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"gen", "-t", "sklansky", "-n", "abc"}, `prefixgen gen: invalid value "abc" for flag -n: want a whole number (see prefixgen gen --help)`},
		{[]string{"gen", "-t", "sklansky", "-n", "99999999999999999999"},
			`prefixgen gen: invalid value "99999999999999999999" for flag -n: out of range: too far from 0 for any flag (see prefixgen gen --help)`},
		{[]string{"verify", "-t", "sklansky", "-n", "4", "--seed", "-1"},
			`prefixgen verify: invalid value "-1" for flag --seed: out of range: allowed 0 or more (see prefixgen verify --help)`},
		// Below 0, not the type's bound, which may not be the flag's.
		{[]string{"optimize", "-n", "8", "--max-depth", "3", "--seed", "-1"},
			`prefixgen optimize: invalid value "-1" for flag --seed: out of range: allowed 0 or more (see prefixgen optimize --help)`},
		{[]string{"verify", "-t", "sklansky", "-n", "4", "--seed", "18446744073709551616"},
			`prefixgen verify: invalid value "18446744073709551616" for flag --seed: out of range: too far from 0 for any flag (see prefixgen verify --help)`},
		// -0 is 0, which the flag allows; its bound is the flag's own.
		{[]string{"verify", "-t", "sklansky", "-n", "4", "--seed", "-0", "--vectors", "-1"},
			`prefixgen verify: --vectors -1 out of range: allowed 0 or more`},
		{[]string{"cuda", "bench", "-t", "sklansky", "--items", "2^26", "--sizes", "0"}, `prefixgen cuda bench: --sizes: size "0" out of range: allowed 1 to 2^40`},
		{[]string{"cuda", "bench", "-t", "sklansky", "--items", "1.5"}, `prefixgen cuda bench: --items: size "1.5" is not a number, 2^K or 2^K±C from 1 to 2^40`},
		{[]string{"synth", "--ling=maybe"}, `prefixgen synth: invalid value "maybe" for flag --ling: want true or false (see prefixgen synth --help)`},
		{[]string{"list", "--help=foo"}, `prefixgen list: invalid value "foo" for flag --help: want true or false (see prefixgen list --help)`},
		{[]string{"optimize", "-n", "8", "--max-delay", "x"}, `prefixgen optimize: invalid value "x" for flag --max-delay: want a number in decimal digits, as 1.5 or 2e-3 (see prefixgen optimize --help)`},
		{[]string{"optimize", "-n", "8", "--max-delay", "1e999"},
			`prefixgen optimize: invalid value "1e999" for flag --max-delay: out of range: too far from 0 for any flag (see prefixgen optimize --help)`},
		{[]string{"optimize", "-n", "8", "--max-delay", "1e-400"},
			`prefixgen optimize: invalid value "1e-400" for flag --max-delay: out of range: too near 0 to tell from it: allowed 0, or numbers from about 5e-324 in size (see prefixgen optimize --help)`},
		{[]string{"explore", "--synth", "--load", "-0.000e-999"}, `prefixgen explore: --load -0 out of range: allowed above 0 up to 1000`},
		{[]string{"explore", "--synth", "--load", "x"}, `prefixgen explore: invalid value "x" for flag --load: want a number in decimal digits, as 1.5 or 2e-3 (see prefixgen explore --help)`},
	}
	for _, tt := range tests {
		requireRefused(t, tt.args, tt.want)
	}
}

// Flags written as one word, or given twice under two names, are told
// what to write instead.
func TestFlagSpelling(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"gen", "-t", "sklansky", "-n8"}, "prefixgen gen: unknown flag -n8: a value goes after a space, as in -n 8 (see prefixgen gen --help)"},
		{[]string{"check", "-t", "sklansky", "-n", "8", "-j4"}, "prefixgen check: unknown flag -j4: a value goes after a space, as in -j 4 (see prefixgen check --help)"},
		{[]string{"cuda", "emit", "-tsklansky"}, "prefixgen cuda emit: unknown flag -tsklansky: a value goes after a space, as in -t sklansky (see prefixgen cuda emit --help)"},
		{[]string{"gen", "-t", "sklansky", "--n8"}, "prefixgen gen: unknown flag --n8 (see prefixgen gen --help)"},
		{[]string{"gen", "--fast"}, "prefixgen gen: unknown flag --fast (see prefixgen gen --help)"},
		{[]string{"gen", "-t", "sklansky", "-n", "8", "-x"}, "prefixgen gen: unknown flag -x (see prefixgen gen --help)"},
		{[]string{"map", "-d6.v"}, "prefixgen map: unknown flag -d6.v (see prefixgen map --help)"},
		{[]string{"gen", "-t", "sklansky", "-n", "8", "-zap"}, "prefixgen gen: unknown flag -zap (see prefixgen gen --help)"},
		{[]string{"gen", "-t", "sklansky", "-n", "8", "-widht=8"}, "prefixgen gen: unknown flag -widht (did you mean --width?) (see prefixgen gen --help)"},
		{[]string{"gen", "-t", "sklansky", "-n", "8", "-o", "a.json", "--output", "b.json"}, "prefixgen gen: -o and --output both given: use one"},
		{[]string{"stats", "-t", "sklansky", "-n", "8", "--width", "4"}, "prefixgen stats: -n and --width both given: use one"},
		{[]string{"cuda", "bench", "-t", "sklansky", "-N", "4", "--items", "5"}, "prefixgen cuda bench: -N and --items both given: use one"},
	}
	for _, tt := range tests {
		requireRefused(t, tt.args, tt.want)
	}
}

// --sparse 0 and --valency 0 are refused like every other value outside
// what is allowed, not taken as the default; left out, the default stands.
func TestZeroIsNotDefault(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"gen", "-t", "sklansky", "-n", "8", "-f", "verilog", "--sparse", "0"}, "prefixgen gen: sparseness 0 not allowed: allowed 1, 2, 4, 8"},
		{[]string{"gen", "-t", "sklansky", "-n", "8", "-f", "json", "--sparse", "0"}, "prefixgen gen: sparseness 0 not allowed: allowed 1, 2, 4, 8"},
		{[]string{"stats", "-t", "sklansky", "-n", "8", "--sparse", "0"}, "prefixgen stats: sparseness 0 not allowed: allowed 1, 2, 4, 8"},
		{[]string{"check", "-t", "sklansky", "-n", "8", "--sparse", "0"}, "prefixgen check: sparseness 0 not allowed: allowed 1, 2, 4, 8"},
		{[]string{"synth", "-t", "sklansky", "-n", "8", "--sparse", "0"}, "prefixgen synth: sparseness 0 not allowed: allowed 1, 2, 4, 8"},
		{[]string{"stats", "-t", "sklansky", "-n", "8", "--valency", "0"}, "prefixgen stats: --valency 0 not allowed: allowed 2, 3, 4"},
		{[]string{"stats", "-t", "sklansky", "-n", "8", "--valency", "-3"}, "prefixgen stats: --valency -3 not allowed: allowed 2, 3, 4"},
		{[]string{"gen", "-t", "sklansky", "-n", "8", "--valency", "0"}, "prefixgen gen: --valency 0 not allowed: allowed 2, 3, 4"},
		{[]string{"synth", "-t", "sklansky", "-n", "8", "--valency", "0"}, "prefixgen synth: --valency 0 not allowed: allowed 2, 3, 4"},
		{[]string{"check", "-t", "sklansky", "-n", "8", "--valency", "0"}, "prefixgen check: --valency 0 not allowed: allowed 2, 3, 4"},
	}
	for _, tt := range tests {
		requireRefused(t, tt.args, tt.want)
	}
	// Left out, and given as the default, both mean the default.
	for _, args := range [][]string{
		{"stats", "-t", "sklansky", "-n", "8", "-f", "csv"},
		{"gen", "-t", "sklansky", "-n", "8", "-f", "verilog"},
	} {
		status, plain, errOut := prefixgen(args...)
		require.Equal(t, 0, status, errOut)
		status, given, errOut := prefixgen(append(args, "--sparse", "1", "--valency", "2")...)
		require.Equal(t, 0, status, errOut)
		assert.Equal(t, plain, given)
	}
}

// help COMMAND [SUBCOMMAND] prints what COMMAND [SUBCOMMAND] --help prints,
// and refuses words it cannot follow.
func TestHelpCommand(t *testing.T) {
	for _, tt := range []struct{ help, flag []string }{
		{[]string{"help"}, []string{"--help"}},
		{[]string{"h"}, []string{"-h"}},
		{[]string{"help", "gen"}, []string{"gen", "--help"}},
		{[]string{"help", "cuda"}, []string{"cuda", "--help"}},
		{[]string{"help", "cuda", "emit"}, []string{"cuda", "emit", "--help"}},
		{[]string{"h", "cuda", "bench"}, []string{"cuda", "bench", "--help"}},
	} {
		t.Run(strings.Join(tt.help, " "), func(t *testing.T) {
			status, help, errOut := prefixgen(tt.help...)
			require.Equal(t, 0, status, errOut)
			status, flag, errOut := prefixgen(tt.flag...)
			require.Equal(t, 0, status, errOut)
			assert.Equal(t, flag, help)
		})
	}
	_, cuda, _ := prefixgen("help", "cuda")
	assert.Contains(t, cuda, "USAGE:\n   prefixgen cuda emit [command options]\n   prefixgen cuda bench [command options]\n")
	assert.Regexp(t, `COMMANDS:\n +emit +write a header-only CUDA library`, cuda)
	assert.Regexp(t, `\n +bench +build the benchmark harness`, cuda)
	_, emit, _ := prefixgen("help", "cuda", "emit")
	assert.Contains(t, emit, "NAME:\n   prefixgen cuda emit - write a header-only CUDA library")

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"help", "gen", "extra"}, `prefixgen help: unexpected argument "extra": prefixgen gen has no commands (see prefixgen gen --help)`},
		{[]string{"help", "cuda", "emit", "extra"}, `prefixgen help: unexpected argument "extra": prefixgen cuda emit has no commands (see prefixgen cuda emit --help)`},
		{[]string{"help", "cuda", "emitt"}, `prefixgen help: unknown command "emitt" (did you mean emit?): known are emit, bench, report (see prefixgen cuda --help)`},
		// A word after a command's --help is refused as help's is.
		{[]string{"gen", "--help", "extra"}, `prefixgen gen: unexpected argument "extra": prefixgen gen has no commands (see prefixgen gen --help)`},
		{[]string{"cuda", "emit", "-h", "extra"}, `prefixgen cuda emit: unexpected argument "extra": prefixgen cuda emit has no commands (see prefixgen cuda emit --help)`},
		{[]string{"cuda", "--help", "emitt"}, `prefixgen cuda help: unknown command "emitt" (did you mean emit?): known are emit, bench, report (see prefixgen cuda --help)`},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			status, out, errOut := prefixgen(tt.args...)
			assert.Equal(t, 2, status)
			assert.Empty(t, out)
			assert.Equal(t, tt.want+"\n", errOut)
		})
	}
}

// The help shows each default once, none for a flag that is required or
// whose 0 is refused, and no flag a command does not have.
func TestHelpDefaults(t *testing.T) {
	help := func(args ...string) string {
		status, out, errOut := prefixgen(append(args, "--help")...)
		require.Equal(t, 0, status, errOut)
		return out
	}
	for _, cmd := range [][]string{{"gen"}, {"stats"}, {"verify"}, {"check"}, {"synth"}, {"optimize"}, {"explore"}, {"report"}} {
		out := help(cmd...)
		for _, line := range strings.Split(out, "\n") {
			assert.LessOrEqual(t, strings.Count(line, "(default:"), 1, "%v: %s", cmd, line)
			for _, flag := range []string{"--width value", "--stages K", "--max-depth value", "--max-delay value", "--max-delay-ns value", "--max-area-um2 value"} {
				if strings.HasPrefix(strings.TrimSpace(line), flag) {
					assert.NotContains(t, line, "(default: 0)", "%v: %s", cmd, line)
				}
			}
		}
	}
	assert.Contains(t, help("gen"), "draw bit 0 in the leftmost column (default: bit 0 rightmost, as in Harris)\n")
	assert.Contains(t, help("gen"), "n ≥ 1 (default: none, required with -t)\n")
	bench := help("cuda", "bench")
	assert.NotContains(t, bench, "--block shared")
	assert.NotContains(t, bench, "--block value")
	assert.NotContains(t, bench, "2048")
	emit := help("cuda", "emit")
	assert.Contains(t, emit, "prefixgen cuda emit -t TOPO [--width W] [--param k=V] [--type T] [--op OP] ")
	assert.Contains(t, emit, "prefixgen cuda emit --from FILE [--type T] [--op OP] [-o FILE]\n")
}

// requireRefused runs prefixgen with args in a subtest named by them: exit
// status 2, nothing on standard output, and want as the one line of
// standard error.
func requireRefused(t *testing.T, args []string, want string) {
	t.Helper()
	t.Run(strings.Join(args, " "), func(t *testing.T) {
		status, out, errOut := prefixgen(args...)
		assert.Equal(t, 2, status)
		assert.Empty(t, out)
		assert.Equal(t, want+"\n", errOut)
	})
}

// FuzzNumberReaders reads arbitrary text as every number flag does: a
// value taken is the number written, in canonical digits (a whole number)
// or as given (a float, finite, and 0 only where its digits are), and a
// value refused has a one-line reason.
func FuzzNumberReaders(f *testing.F) {
	for _, seed := range []string{"0", "-0", "+7", "007", "-12", "9223372036854775808", "18446744073709551616",
		"0x10", "1_000", "1e3", "1.5", ".5", "5.", "1e400", "1e-400", "0e5", "-0.0", "NaN", "inf", " 1", "1 ", ""} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		oneLine := func(err error) {
			require.NotEmpty(t, err.Error())
			require.NotContains(t, err.Error(), "\n")
		}
		if out, err := signed(64)(s); err != nil {
			oneLine(err)
		} else {
			n, perr := strconv.ParseInt(s, 10, 64)
			require.NoError(t, perr, "%q taken as %q", s, out)
			require.Equal(t, strconv.FormatInt(n, 10), out)
		}
		if out, err := unsigned(64)(s); err != nil {
			oneLine(err)
		} else {
			n, perr := strconv.ParseUint(strings.TrimPrefix(s, "+"), 10, 64)
			if perr != nil { // -0 and its like, read as 0
				m, merr := strconv.ParseInt(s, 10, 64)
				require.True(t, merr == nil && m == 0, "%q taken as %q", s, out)
			}
			require.Equal(t, strconv.FormatUint(n, 10), out)
		}
		if out, err := float(s); err != nil {
			oneLine(err)
		} else {
			require.Equal(t, s, out)
			v, perr := strconv.ParseFloat(s, 64)
			require.NoError(t, perr)
			require.False(t, math.IsInf(v, 0) || math.IsNaN(v), "%q", s)
			mantissa, _, _ := strings.Cut(strings.ToLower(s), "e")
			require.True(t, v != 0 || !strings.ContainsAny(mantissa, "123456789"), "%q read as 0", s)
		}
	})
}
