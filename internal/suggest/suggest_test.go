package suggest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"kogge-stne", "kogge-stone", 1},
		{"verilgo", "verilog", 1},
		{"synht", "synth", 1},
		{"kitten", "sitting", 3},
		{"ça", "ca", 1},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Distance(tt.a, tt.b), "%s %s", tt.a, tt.b)
		assert.Equal(t, tt.want, Distance(tt.b, tt.a), "%s %s", tt.b, tt.a)
	}
}

func TestClosest(t *testing.T) {
	topologies := []string{"ripple", "kogge-stone", "brent-kung", "sklansky", "han-carlson", "ladner-fischer", "knowles", "harris", "zero-deficiency"}
	commands := []string{"list", "gen", "stats", "verify", "compare", "check", "cuda", "explore", "report", "optimize", "synth"}
	formats := []string{"text", "json", "dot", "svg", "verilog", "vhdl", "yosys-lcu"}
	tests := []struct {
		word       string
		candidates []string
		want       string
	}{
		{"kogge-stne", topologies, "kogge-stone"},
		{"Sklanksy", topologies, "sklansky"},
		{"brentkung", topologies, "brent-kung"},
		{"kogge", topologies, "kogge-stone"},
		{"han", topologies, "han-carlson"},
		{"wallace", topologies, ""},
		{"x", topologies, ""},
		{"k", topologies, ""},
		{"synht", commands, "synth"},
		{"stat", commands, "stats"},
		{"lst", commands, "list"},
		{"frobnicate", commands, ""},
		{"verilgo", formats, "verilog"},
		{"jsno", formats, "json"},
		{"v", formats, ""},
		{"", formats, ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Closest(tt.word, tt.candidates), tt.word)
	}
}
