package tooltest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/prefixgen/prefixgen/internal/tooltest"
)

func TestSweep(t *testing.T) {
	all := []string{"a", "b", "c", "d"}
	t.Run("sample", func(t *testing.T) {
		t.Setenv(tooltest.SweepsEnv, "")
		assert.Equal(t, []string{"d", "b"}, tooltest.Sweep(t, "letters", all, 3, 1))
	})
	t.Run("whole", func(t *testing.T) {
		t.Setenv(tooltest.SweepsEnv, "1")
		assert.Equal(t, all, tooltest.Sweep(t, "letters", all, 3, 1))
	})
	for _, bad := range [][]int{{4}, {-1}, {1, 1}} {
		t.Run("bad", func(t *testing.T) {
			t.Setenv(tooltest.SweepsEnv, "")
			ft := &fatal{TB: t}
			func() {
				defer func() { recover() }()
				tooltest.Sweep(ft, "letters", all, bad...)
			}()
			assert.True(t, ft.failed, "sample %v", bad)
		})
	}
}

// fatal records a Fatalf instead of ending the test.
type fatal struct {
	testing.TB
	failed bool
}

func (f *fatal) Fatalf(string, ...any) {
	f.failed = true
	panic("fatal")
}

func (f *fatal) Helper() {}
