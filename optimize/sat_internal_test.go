package optimize

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/tooltest"
)

// cnf is a formula in conjunctive normal form under construction.
type cnf struct {
	vars    int
	clauses [][]int
}

// fresh returns a new variable.
func (f *cnf) fresh() int {
	f.vars++
	return f.vars
}

// add adds a clause.
func (f *cnf) add(lits ...int) { f.clauses = append(f.clauses, lits) }

// The literals of a span's availability that are fixed: always and never.
const (
	never  = 0
	always = -1
)

// atMost adds a sequential counter (Sinz 2005): at most k of xs are true.
func (f *cnf) atMost(xs []int, k int) {
	if k >= len(xs) {
		return
	}
	if k == 0 {
		for _, x := range xs {
			f.add(-x)
		}
		return
	}
	prev := make([]int, k+1)
	for i, x := range xs {
		cur := make([]int, k+1)
		for j := 1; j <= k; j++ {
			cur[j] = f.fresh()
		}
		f.add(-x, cur[1])
		if i > 0 {
			for j := 1; j <= k; j++ {
				f.add(-prev[j], cur[j])
			}
			for j := 2; j <= k; j++ {
				f.add(-x, -prev[j-1], cur[j])
			}
			f.add(-x, -prev[k])
		}
		prev = cur
	}
}

// prefixCNF encodes "some network of at most size cells solves the problem
// p": spans [j, i] of p.n elements, e_0 ready at level p.a and the others
// at 0, every prefix [0, i] by level p.d and the last by p.t. avail[j][i][l]
// says that span [j, i] is ready by level l, which takes a cell joining two
// spans ready by l − 1; a span's cell counts once, however many levels it
// is ready at. Every network of the problem satisfies it, so UNSAT proves
// that none has that few cells.
func prefixCNF(p part, size int) *cnf {
	n, d := p.n, p.d
	f := &cnf{}
	avail := make([][][]int, n)
	for j := range n {
		avail[j] = make([][]int, n)
		for i := j; i < n; i++ {
			avail[j][i] = make([]int, d+1)
			for l := 0; l <= d; l++ {
				ready := l >= 1 && i-j < 1<<l
				if j == 0 {
					ready = ready && l > p.a
				}
				switch {
				case i == j && (j > 0 || l >= p.a):
					avail[j][i][l] = always
				case i > j && ready:
					avail[j][i][l] = f.fresh()
				}
			}
		}
	}
	cell := make([][]int, n)
	var cells []int
	for j := range n {
		cell[j] = make([]int, n)
		for i := j + 1; i < n; i++ {
			c := f.fresh()
			cell[j][i] = c
			cells = append(cells, c)
			for l := 1; l <= d; l++ {
				v := avail[j][i][l]
				if v == never {
					continue
				}
				f.add(-v, c)
				if l < d {
					f.add(-v, avail[j][i][l+1])
				}
				ways := []int{-v}
				for k := j; k < i && ways != nil; k++ {
					lo, hi := avail[j][k][l-1], avail[k+1][i][l-1]
					switch {
					case lo == never || hi == never:
					case lo == always && hi == always:
						ways = nil
					case lo == always:
						ways = append(ways, hi)
					case hi == always:
						ways = append(ways, lo)
					default:
						both := f.fresh()
						f.add(-both, lo)
						f.add(-both, hi)
						ways = append(ways, both)
					}
				}
				if ways != nil {
					f.add(ways...)
				}
			}
		}
	}
	// A cell that no longer span extends is wasted: leave it out.
	for j := 1; j < n; j++ {
		for i := j + 1; i < n; i++ {
			used := []int{-cell[j][i]}
			for i2 := i + 1; i2 < n; i2++ {
				used = append(used, cell[j][i2])
			}
			for j2 := range j {
				used = append(used, cell[j2][i])
			}
			f.add(used...)
		}
	}
	for i := 1; i < n; i++ {
		bound := p.d
		if i == n-1 {
			bound = p.t
		}
		if avail[0][i][bound] == never {
			f.add() // the empty clause: the depth bounds cannot be met
			continue
		}
		f.add(avail[0][i][bound])
	}
	f.atMost(cells, size)
	return f
}

// satisfiable runs the SAT solver at path on f and says whether f is
// satisfiable.
func satisfiable(t *testing.T, path string, f *cnf) bool {
	t.Helper()
	var b bytes.Buffer
	fmt.Fprintf(&b, "p cnf %d %d\n", f.vars, len(f.clauses))
	for _, c := range f.clauses {
		for _, x := range c {
			fmt.Fprintf(&b, "%d ", x)
		}
		b.WriteString("0\n")
	}
	file := filepath.Join(t.TempDir(), "problem.cnf")
	require.NoError(t, os.WriteFile(file, b.Bytes(), 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// CaDiCaL exits 10 for satisfiable and 20 for unsatisfiable.
	out, _ := exec.CommandContext(ctx, path, "-q", "-n", file).Output()
	switch s := string(out); {
	case strings.Contains(s, "s SATISFIABLE"):
		return true
	case strings.Contains(s, "s UNSATISFIABLE"):
		return false
	}
	t.Fatalf("cadical gave no answer on %s: %q", file, out)
	return false
}

// TestOptimalBySAT checks that the recursion's size is the least any
// network of the problem can have, by a SAT solver (CaDiCaL) over every
// network of the problem's spans and levels: a network of that size exists
// (a check of the encoding) and none of one cell fewer. The problems are
// whole networks at the least depth, where Sergeev's formula gives the
// optimum for 16 and 32 inputs, widths between, and the six problems behind
// a late carry on which the recursion fell a cell short until it kept late
// elements of two kinds (TestLateTails).
func TestOptimalBySAT(t *testing.T) {
	path := tooltest.Path(t, "cadical")
	tests := []part{
		{16, 0, 4, 4}, {24, 0, 5, 5}, {29, 0, 5, 5}, {32, 0, 5, 5},
		{14, 4, 6, 5}, {20, 4, 6, 6}, {22, 3, 6, 5},
		{19, 5, 7, 6}, {20, 5, 7, 6}, {22, 5, 7, 6},
	}
	s := searchSolver(32, 7, 0)
	s.enableLastBlocks()
	sizes := make([]int, len(tests))
	for k, p := range tests {
		sizes[k] = int(s.solve(p.n, p.a, p.d, p.t))
		require.Less(t, sizes[k], int(infinite))
	}
	for k, p := range tests {
		t.Run(fmt.Sprintf("n=%d,a=%d,d=%d,t=%d", p.n, p.a, p.d, p.t), func(t *testing.T) {
			t.Parallel()
			size := sizes[k]
			require.True(t, satisfiable(t, path, prefixCNF(p, size)), "no network of %d cells: the encoding is wrong", size)
			require.False(t, satisfiable(t, path, prefixCNF(p, size-1)), "a network of %d cells exists", size-1)
		})
	}
}

// TestOptimalBySATCatchesLoss plants a weaker recursion, without the larger
// last blocks, and checks that the SAT check of TestOptimalBySAT would fail
// on it: behind a carry at level 4 it builds 14 elements in more than 26
// cells, and the solver finds a network one cell below what it built.
func TestOptimalBySATCatchesLoss(t *testing.T) {
	path := tooltest.Path(t, "cadical")
	p := part{14, 4, 6, 5}
	weak := int(newSolver(14, 6, 0).solve(p.n, p.a, p.d, p.t))
	require.Greater(t, weak, 26)
	require.True(t, satisfiable(t, path, prefixCNF(p, weak-1)), "the check misses a recursion %d cells above the optimum", weak-26)
}
