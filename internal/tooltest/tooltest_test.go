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
	t.Run("misnamed", func(t *testing.T) {
		ft := &fatal{TB: t, name: "TestPTX/unit"}
		func() {
			defer func() { recover() }()
			tooltest.SweepOnly(ft)
		}()
		assert.True(t, ft.failed, "a sweep not named TestSweep…")
	})
}

// fatal records a Fatalf instead of ending the test.
type fatal struct {
	testing.TB
	failed bool
	name   string // Name's answer, where set
}

func (f *fatal) Name() string {
	if f.name != "" {
		return f.name
	}
	return f.TB.Name()
}

func (f *fatal) Fatalf(string, ...any) {
	f.failed = true
	panic("fatal")
}

func (f *fatal) Helper() {}
