package progress

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLine(t *testing.T) {
	tests := []struct {
		done, total int
		elapsed     time.Duration
		want        string
	}{
		{0, 10, 2 * time.Second, "prefixgen synth: 0/10 designs, 2s so far"},
		{5, 10, 20 * time.Second, "prefixgen synth: 5/10 designs, 20s left"},
		{1, 4, 1500 * time.Millisecond, "prefixgen synth: 1/4 designs, 4.5s left"},
		{10, 10, 95 * time.Second, "prefixgen synth: 10/10 designs, done in 1m35s"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Line("prefixgen synth", "designs", tt.done, tt.total, tt.elapsed))
	}
}

// clock is a fake time for a Bar.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }
func newBar(mode Mode, tty bool, c *clock) (*Bar, *strings.Builder) {
	var w strings.Builder
	b := New(&w, "prefixgen check", "checks", mode)
	b.tty, b.show, b.forced = tty, mode == Always || mode == Auto && tty, mode == Always
	b.start, b.now = c.t, c.now
	return b, &w
}

func TestBarTerminal(t *testing.T) {
	c := &clock{t: time.Unix(0, 0)}
	b, w := newBar(Auto, true, c)
	b.Update(1, 4)
	assert.Empty(t, w.String(), "nothing in the first second")
	c.advance(2 * time.Second)
	b.Update(2, 4)
	assert.Equal(t, "\rprefixgen check: 2/4 checks, 2s left", w.String())
	c.advance(10 * time.Millisecond)
	b.Update(3, 4)
	assert.Equal(t, "\rprefixgen check: 2/4 checks, 2s left", w.String(), "redrawn at most ten times a second")
	c.advance(time.Second)
	b.Update(4, 4)
	b.Done()
	done := "prefixgen check: 4/4 checks, done in 3s"
	assert.True(t, strings.HasSuffix(w.String(), "\r"+done+"\r"+strings.Repeat(" ", len(done))+"\r"), "%q", w.String())
}

func TestBarModes(t *testing.T) {
	c := &clock{t: time.Unix(0, 0)}
	auto, w := newBar(Auto, false, c)
	quiet, wq := newBar(Never, true, c)
	forced, wf := newBar(Always, false, c)
	for i := 1; i <= 4; i++ {
		c.advance(3 * time.Second)
		for _, b := range []*Bar{auto, quiet, forced} {
			b.Update(i, 4)
		}
	}
	forced.Done()
	assert.Empty(t, w.String(), "not a terminal: nothing unless forced")
	assert.Empty(t, wq.String(), "quiet")
	assert.Equal(t, "prefixgen check: 1/4 checks, 9s left\nprefixgen check: 3/4 checks, 3s left\nprefixgen check: 4/4 checks, done in 12s\n", wf.String(), "forced: a line every five seconds, and the last")
}

func TestNilBar(t *testing.T) {
	var b *Bar
	b.Update(1, 2)
	b.Beat(time.Millisecond)()
	b.Done()
}

// A step that lasts shows on a terminal, its time so far growing, between
// the updates of its work.
func TestBarBeat(t *testing.T) {
	var w syncBuilder
	b := New(&w, "prefixgen optimize", "steps", Always)
	b.tty = true
	b.Update(0, 1)
	stop := b.Beat(10 * time.Millisecond)
	time.Sleep(1300 * time.Millisecond)
	stop()
	stop()
	assert.Regexp(t, `\rprefixgen optimize: 0/1 steps, 1\.\ds so far`, w.String())
}

// syncBuilder is a strings.Builder that a Bar's beat may write beside the
// test.
type syncBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuilder) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuilder) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A forced bar shows work that ends within the first second too: a script
// that asks for progress gets its first and last lines.
func TestBarForcedAtOnce(t *testing.T) {
	c := &clock{t: time.Unix(0, 0)}
	b, w := newBar(Always, false, c)
	b.Update(1, 2)
	c.advance(300 * time.Millisecond)
	b.Update(2, 2)
	b.Update(2, 2)
	b.Done()
	assert.Equal(t, "prefixgen check: 1/2 checks, 0s left\nprefixgen check: 2/2 checks, done in 300ms\n", w.String())
}

// drawnBar returns a bar on a terminal with its line drawn, and the line.
func drawnBar() (*Bar, *strings.Builder, *clock, string) {
	c := &clock{t: time.Unix(0, 0)}
	b, w := newBar(Auto, true, c)
	c.advance(2 * time.Second)
	b.Update(2, 4)
	return b, w, c, "prefixgen check: 2/4 checks, 2s left"
}

// TestBarPrintln: a line written while a bar is drawn on a terminal goes
// above it, the bar's line cleared first and drawn again after; elsewhere
// it is just the line.
func TestBarPrintln(t *testing.T) {
	b, w, c, bar := drawnBar()
	b.Println("prefixgen check: start")
	assert.Equal(t, "\r"+bar+"\r"+strings.Repeat(" ", len(bar))+"\rprefixgen check: start\n\r"+bar, w.String())

	p, pw := newBar(Auto, false, c)
	p.Println("prefixgen check: start")
	assert.Equal(t, "prefixgen check: start\n", pw.String())
	var nilBar *Bar
	nilBar.Println("x") // no panic, nowhere to write
}

// TestStop: Stop clears every bar's line from its terminal and draws none
// after, so that the line a stop writes stands alone.
func TestStop(t *testing.T) {
	b, w, c, bar := drawnBar()
	Stop()
	t.Cleanup(func() { stopped.Store(false) })
	assert.Equal(t, "\r"+bar+"\r"+strings.Repeat(" ", len(bar)+2)+"\r", w.String())
	c.advance(time.Second)
	b.Update(3, 4)
	assert.Equal(t, "\r"+bar+"\r"+strings.Repeat(" ", len(bar)+2)+"\r", w.String(), "nothing drawn after a stop")
}

// Writer writes each whole line above the bar, as Println does: a tool's
// log lines under -v ran onto the bar's line. A last line without its
// newline is written by Close.
func TestBarWriter(t *testing.T) {
	c := &clock{t: time.Unix(0, 0)}
	b, w := newBar(Auto, true, c)
	c.advance(2 * time.Second)
	b.Update(1, 4)
	drawn := w.String()
	require.NotEmpty(t, drawn)
	lw := b.Writer()
	_, err := lw.Write([]byte("nvcc: one\nnvcc: tw"))
	require.NoError(t, err)
	_, err = lw.Write([]byte("o\n"))
	require.NoError(t, err)
	_, err = lw.Write([]byte("last"))
	require.NoError(t, err)
	require.NoError(t, lw.Close())
	out := strings.TrimPrefix(w.String(), drawn)
	for _, line := range []string{"nvcc: one", "nvcc: two", "last"} {
		assert.Contains(t, out, "\r"+line+"\n", "each line on a line of its own, the bar's cleared first")
	}
	assert.NotContains(t, out, "left"+"nvcc")
}

// TestBarNarrowTerminal: on a terminal narrower than the line, the line is
// cut to one column less than the terminal's width, so that it never wraps:
// a wrapped line is redrawn below itself at every update, and its clear
// wipes only the last row.
func TestBarNarrowTerminal(t *testing.T) {
	b, w, _ := terminalBar(func() int { return 20 })
	b.Update(2, 4)
	assert.Equal(t, "\rprefixgen check: 2…", w.String())
	b.Done()
	assert.Equal(t, "\rprefixgen check: 2…\r"+strings.Repeat(" ", 19)+"\r", w.String())
	b, w, _ = terminalBar(func() int { return 0 }) // not known: the whole line
	b.Update(2, 4)
	assert.Equal(t, "\rprefixgen check: 2/4 checks, 2s left", w.String())
}

// TestBarShrunkTerminal: a terminal made narrower between two draws gets
// no more than one column less than its width, padding and clear
// included: padded to the wider line before, the bar wrapped, and every
// draw after reached only the row below the line it left.
func TestBarShrunkTerminal(t *testing.T) {
	cols := 80
	b, w, c := terminalBar(func() int { return cols })
	b.Update(2, 40)
	wide := w.Len()
	cols = 20
	c.advance(time.Second)
	b.Update(3, 40)
	assert.Equal(t, "\rprefixgen check: 3…", w.String()[wide:], "cut, and padded no further than the terminal")
	drawn := w.Len()
	b.Done()
	assert.Equal(t, "\r"+strings.Repeat(" ", 19)+"\r", w.String()[drawn:])
}

// TestStopClearsEcho: the line a stop clears includes the two columns
// after the bar where a terminal echoes ^C, which had been left at the end
// of the stop's own line.
func TestStopClearsEcho(t *testing.T) {
	b, w, _ := terminalBar(func() int { return 80 })
	b.Update(1, 4)
	bar := strings.TrimPrefix(w.String(), "\r")
	Stop()
	t.Cleanup(func() { stopped.Store(false) })
	assert.Equal(t, "\r"+bar+"\r"+strings.Repeat(" ", len(bar)+2)+"\r", w.String())
}

// terminalBar returns a bar drawn on a terminal of cols columns, two
// seconds after it started, not yet updated, and its clock.
func terminalBar(cols func() int) (*Bar, *strings.Builder, *clock) {
	c := &clock{t: time.Unix(0, 0)}
	b, w := newBar(Auto, true, c)
	b.columns = cols
	c.advance(2 * time.Second)
	return b, w, c
}
