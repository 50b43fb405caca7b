package delay_test

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/topologies"
)

// ramp returns arrival times rising by step ns per bit over n bits.
func ramp(n int, step float64) []float64 {
	ts := make([]float64, n)
	for i := range ts {
		ts[i] = float64(i) * step
	}
	return ts
}

// TestProfileShifts checks the profile's arithmetic: every input later by
// t makes every output later by t; every output required later by t makes
// it t less late; a nil profile is Analyze.
func TestProfileShifts(t *testing.T) {
	lib := delay.OSU018
	net := build(t, "sklansky", 16, nil)
	base := lib.Analyze(net)
	assert.Equal(t, base, lib.AnalyzeProfile(net, nil))
	assert.Equal(t, base, lib.AnalyzeProfile(net, &delay.Profile{}))
	late := make([]float64, 16)
	for i := range late {
		late[i] = 0.5
	}
	r := lib.AnalyzeProfile(net, &delay.Profile{Arrival: late})
	assert.InDelta(t, base.NS+0.5, r.NS, 1e-9)
	assert.Equal(t, base.Path, r.Path)
	req := make([]float64, 17)
	for i := range req {
		req[i] = 0.25
	}
	r = lib.AnalyzeProfile(net, &delay.Profile{Arrival: late, Required: req})
	assert.InDelta(t, base.NS+0.25, r.NS, 1e-9)
	assert.Equal(t, base.Area, r.Area)
}

// TestProfileRanks checks that the profile changes which network is
// fastest, as it does in a design: with the operands' bits arriving one
// after another, later towards the top (as a ripple of earlier logic
// delivers them), the ripple-carry adder, whose last bit meets one cell,
// is faster than Kogge–Stone, whose last bit meets log2 n of them; with
// every bit at once Kogge–Stone is far faster. And the path named ends at
// the output that is latest against its required time.
func TestProfileRanks(t *testing.T) {
	lib := delay.OSU018
	ripple, ks := build(t, "ripple", 32, nil), build(t, "kogge-stone", 32, nil)
	assert.Less(t, lib.Analyze(ks).Tau, lib.Analyze(ripple).Tau/3)
	steep := &delay.Profile{Arrival: ramp(32, 0.3)}
	assert.Less(t, lib.AnalyzeProfile(ripple, steep).Tau, lib.AnalyzeProfile(ks, steep).Tau)

	// Require every output but sum_5 a microsecond later: sum_5 is then the
	// latest against its time.
	req := make([]float64, 33)
	for i := range req {
		req[i] = 1000
	}
	req[5] = 0
	r := lib.AnalyzeProfile(ks, &delay.Profile{Required: req})
	assert.Equal(t, 5, r.Path.To)
	assert.Less(t, r.Tau, lib.Analyze(ks).Tau)
}

func TestProfileCheck(t *testing.T) {
	for _, c := range []struct {
		name string
		p    *delay.Profile
		want string
	}{
		{"nil", nil, ""},
		{"empty", &delay.Profile{}, ""},
		{"whole", &delay.Profile{Arrival: ramp(4, 1), Required: ramp(5, 1)}, ""},
		{"short arrival", &delay.Profile{Arrival: ramp(3, 1)}, "delay: 3 arrival times for an adder of 4 bits: allowed one per bit"},
		{"required without carry-out", &delay.Profile{Required: ramp(4, 1)}, "delay: 4 required times for an adder of 4 bits: allowed one per sum bit and one for the carry-out, 5"},
		{"NaN", &delay.Profile{Arrival: []float64{0, math.NaN(), 0, 0}}, "delay: arrival time 1 is NaN: allowed a number of ns from -1e6 to 1e6"},
		{"infinite", &delay.Profile{Required: []float64{0, 0, 0, 0, math.Inf(1)}}, "delay: required time 4 is +Inf: allowed a number of ns from -1e6 to 1e6"},
		// The bound holds both ways: far in the past is refused too.
		{"too early", &delay.Profile{Arrival: []float64{-2e6, 0, 0, 0}}, "delay: arrival time 0 is -2e+06: allowed a number of ns from -1e6 to 1e6"},
		{"too late", &delay.Profile{Required: []float64{0, 0, 0, 0, 2e6}}, "delay: required time 4 is 2e+06: allowed a number of ns from -1e6 to 1e6"},
		{"at the bounds", &delay.Profile{Arrival: []float64{-1e6, 1e6, 0, 0}}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.p.Check(4)
			if c.want == "" {
				require.NoError(t, err)
				return
			}
			assert.EqualError(t, err, c.want)
		})
	}
}

func TestReadProfile(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     *delay.Profile
		err      string
	}{
		{"both", `{"arrival_ns": [0, 0.5], "required_ns": [1, 1, 2]}`, &delay.Profile{Arrival: []float64{0, 0.5}, Required: []float64{1, 1, 2}}, ""},
		{"arrival only", `{"arrival_ns": [0.25]}` + "\n", &delay.Profile{Arrival: []float64{0.25}}, ""},
		{"neither", `{}`, nil, "delay: profile: neither arrival_ns nor required_ns: allowed either or both"},
		{"unknown field", `{"arrival": [1]}`, nil, `delay: profile: unknown field "arrival" (allowed {"arrival_ns": [ns per bit], "required_ns": [ns per output]})`},
		{"not a number", `{"arrival_ns": ["1"]}`, nil, `delay: profile: field "arrival_ns" holds a string, which is not allowed there (allowed {"arrival_ns": [ns per bit], "required_ns": [ns per output]})`},
		{"trailing", `{"arrival_ns": [1]} {}`, nil, "delay: profile: more after its JSON object: allowed one object"},
		{"out of range", `{"arrival_ns": [1e400]}`, nil, `delay: profile: field "arrival_ns" holds a number 1e400, which is not allowed there (allowed {"arrival_ns": [ns per bit], "required_ns": [ns per output]})`},
		{"a list as a number", `{"arrival_ns": 1}`, nil, `delay: profile: field "arrival_ns" holds a number, which is not allowed there (allowed {"arrival_ns": [ns per bit], "required_ns": [ns per output]})`},
		{"empty", ``, nil, `delay: profile: the input is empty (allowed {"arrival_ns": [ns per bit], "required_ns": [ns per output]})`},
		{"null time", `{"arrival_ns": [1, null, 3]}`, nil, `delay: profile: arrival_ns[1] is null: allowed a number of ns`},
		{"key twice", `{"arrival_ns": [1], "arrival_ns": [2]}`, nil, `delay: profile: key "arrival_ns" appears twice in the document: each key once`},
		{"key in capitals", `{"ARRIVAL_NS": [1]}`, nil, `delay: profile: unknown field "ARRIVAL_NS" (allowed {"arrival_ns": [ns per bit], "required_ns": [ns per output]})`},
		{"trailing bracket", `{"arrival_ns": [1, 2]}]`, nil, "delay: profile: more after its JSON object: allowed one object"},
		{"trailing brace", `{"arrival_ns": [1, 2]}}`, nil, "delay: profile: more after its JSON object: allowed one object"},
		{"null list", `{"arrival_ns": null, "required_ns": [1]}`, &delay.Profile{Required: []float64{1}}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := delay.ReadProfile(strings.NewReader(c.in))
			if c.err != "" {
				assert.EqualError(t, err, c.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, p)
		})
	}
}

// FuzzReadProfile checks that any file gives a profile or an error, and
// that a profile that passes Check can be analyzed without a panic.
func FuzzReadProfile(f *testing.F) {
	f.Add(`{"arrival_ns": [0, 0.5, 1, 1.5], "required_ns": [1, 1, 2, 2, 3]}`)
	f.Add(`{"arrival_ns": [1e300, -1e300, 0, 0]}`)
	f.Add(`{"required_ns": []}`)
	net, err := topologies.Build("sklansky", 4, nil)
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, in string) {
		p, err := delay.ReadProfile(strings.NewReader(in))
		if err != nil || p.Check(4) != nil {
			return
		}
		r := delay.OSU018.AnalyzeProfile(net, p)
		assert.False(t, math.IsNaN(r.Tau))
	})
}
