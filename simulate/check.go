package simulate

import (
	"fmt"
	"math/rand/v2"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/network"
)

// The evaluators Verify uses; tests replace them to plant bugs.
var (
	evalRanges   = Eval[Range]
	evalMatrices = Eval[Mat2]
)

// checkPrime is the modulus of the matrices Verify evaluates over.
const checkPrime = 1_000_000_007

// Report is what Verify found about one network.
type Report struct {
	// Width is the network's width.
	Width int
	// Interval is nil when evaluating the network over the Interval monoid
	// gave [0, i] at every output i, and says what went wrong otherwise.
	Interval error
	// Matrix is nil when evaluating the network over random 2×2 matrices
	// mod 1 000 000 007 (Matrix2) gave the sequential scan's products.
	Matrix error
	// Adder is the verification of the adder built around the network.
	Adder AdderReport
}

// OK reports whether every check passed.
func (r Report) OK() bool {
	return r.Interval == nil && r.Matrix == nil && r.Adder.Mismatch == nil
}

// Failure describes the first failed check in one line, or returns "" when
// every check passed.
func (r Report) Failure() string {
	switch {
	case r.Interval != nil:
		return r.Interval.Error()
	case r.Matrix != nil:
		return r.Matrix.Error()
	case r.Adder.Mismatch != nil:
		return fmt.Sprintf("simulate: %d-bit adder: %v", r.Width, r.Adder.Mismatch)
	}
	return ""
}

// Verify checks a network three independent ways beyond the span proof that
// its existence already is: it evaluates it over the Interval monoid (every
// combine must join adjacent ranges, lower first) and over random 2×2
// matrices mod a prime (non-commutative, so a swapped operand changes the
// product), comparing each with Scan; and it verifies the adder around it
// with VerifyAdder. The matrices are drawn from opt.Seed. The error is for
// bad options only; failed checks are reported in the Report.
func Verify(net *network.Network, opt VerifyOptions) (Report, error) {
	return VerifyDescribed(net, nil, opt)
}

// VerifyDescribed is Verify with the adder of d, described around net, in
// place of the plain adder around it: VerifyDescription checks d, nil
// checks the plain adder.
func VerifyDescribed(net *network.Network, d *adder.Description, opt VerifyOptions) (Report, error) {
	var r AdderReport
	var err error
	if d == nil {
		r, err = VerifyAdder(net, opt)
	} else {
		r, err = VerifyDescription(d, opt)
	}
	if err != nil {
		return Report{}, err
	}
	return verifyNetwork(net, r, opt), nil
}

// verifyNetwork adds the network's checks to the adder's report.
func verifyNetwork(net *network.Network, adder AdderReport, opt VerifyOptions) Report {
	r := Report{Width: net.Width(), Adder: adder}
	r.Interval = checkInterval(net)
	r.Matrix = checkMatrix(net, opt.Seed)
	return r
}

// checkInterval evaluates net over Interval, turning its panic into an error.
func checkInterval(net *network.Network) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	in := make([]Range, net.Width())
	for i := range in {
		in[i] = Unit(i)
	}
	got := evalRanges(net, Interval{}, in)
	for i, r := range got {
		if r != (Range{From: 0, To: i}) {
			return fmt.Errorf("simulate: interval evaluation: output %d is %v, want [0,%d]", i, r, i)
		}
	}
	return nil
}

// checkMatrix compares net over random matrices with the sequential scan.
func checkMatrix(net *network.Network, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, 1))
	in := make([]Mat2, net.Width())
	for i := range in {
		for r := range 2 {
			for c := range 2 {
				in[i][r][c] = rng.Uint64N(checkPrime)
			}
		}
	}
	m := Matrix2{Mod: checkPrime}
	got, want := evalMatrices(net, m, in), Scan(m, in)
	for i := range got {
		if got[i] != want[i] {
			return fmt.Errorf("simulate: 2×2 matrix evaluation: output %d is %v, the sequential scan gives %v", i, got[i], want[i])
		}
	}
	return nil
}
