package main

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/topologies"
)

// fromKey and startKey are where the documents --from and optimize's
// --start name are kept once read, in the app's metadata: a command reads
// each file once, so that it may name a pipe.
const (
	fromKey  = "prefixgen/from"
	startKey = "prefixgen/start"
)

// document is an adder file, read: a prefixgen.network/v1 document (the
// plain adder) or a prefixgen.adder/v1 one, which records the adder's
// architecture (recorded) and may say what it was made for (target).
type document struct {
	net    *network.Network
	arch   adder.Architecture
	target adder.Target
	// recorded: an adder document, which fixes every part of arch; a
	// network document's plain adder is a default any flag may change.
	recorded bool
	err      error
}

// readOnce reads the document at the path of flag (--from) once per run,
// keeping it in the app's metadata under key.
func readOnce(c *cli.Context, key, flag string) *document {
	if d, ok := c.App.Metadata[key].(*document); ok {
		return d
	}
	d := readDocument(c, c.String(flag), "network file")
	if c.App.Metadata == nil {
		c.App.Metadata = map[string]any{}
	}
	c.App.Metadata[key] = d
	return d
}

// readFrom reads the document --from names, once per run: a
// prefixgen.network/v1 document (the plain adder) or a prefixgen.adder/v1
// one, a network with the architecture of the adder around it, which it
// records (recorded).
func readFrom(c *cli.Context) (net *network.Network, arch adder.Architecture, recorded bool, err error) {
	d := readOnce(c, fromKey, "from")
	return d.net, d.arch, d.recorded, d.err
}

// readDocument reads the network document or adder document at path, as
// readFrom reads --from's: the network proven and its claim checked, the
// architecture an adder document records (recorded) or the standard one,
// and what the adder was made for where the document says. What names the
// file in an error: "network file", or "start file" for optimize's --start.
func readDocument(c *cli.Context, path, what string) *document {
	fail := func(err error) *document { return &document{err: err} }
	allowed := fmt.Sprintf("a %s or %s file", network.Format, adder.DocumentFormat)
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fail(fmt.Errorf("prefixgen %s: cannot read %s %s: it is a folder: allowed %s", c.Command.Name, what, path, allowed))
	}
	if path == "-" {
		return fail(fmt.Errorf("prefixgen %s: cannot read %s \"-\": standard input is not read: allowed the path of %s", c.Command.Name, what, allowed))
	}
	data, err := readInput(path)
	if isTooLarge(err) {
		return fail(fmt.Errorf("prefixgen %s: %s %v", c.Command.Name, what, err))
	}
	if err != nil {
		if pe, ok := errors.AsType[*fs.PathError](err); ok {
			err = pe.Err // the path once, not twice
		}
		return fail(fmt.Errorf("prefixgen %s: cannot read %s %s: %v: allowed %s", c.Command.Name, what, path, err, allowed))
	}
	d := &document{recorded: adder.IsDocument(data)}
	d.net, d.arch, d.target, err = adder.ReadDocumentFor(bytes.NewReader(data))
	if err == nil {
		err = claim(d.net)
	}
	if err != nil {
		return fail(fmt.Errorf("prefixgen %s: %s: %s", c.Command.Name, path, dropWords(err.Error(), modulePackages)))
	}
	return d
}

// madeFor returns what the adder the command reads from a file (--from,
// or optimize's --start) was made for, and the file's path: the zero
// Target where the command reads none, or the file does not say.
func madeFor(c *cli.Context) (adder.Target, string, error) {
	if hasFlag(c, "from") && c.String("from") != "" && c.String("topology") == "" && !c.IsSet("widths") {
		d := readOnce(c, fromKey, "from")
		return d.target, c.String("from"), d.err
	}
	if hasFlag(c, "start") && len(c.StringSlice("start")) > 0 {
		docs, err := readStarts(c)
		if err != nil {
			return adder.Target{}, "", err
		}
		// Of each part the flags do not give, the first file that says;
		// the others say the same or nothing.
		files := c.StringSlice("start")
		var t adder.Target
		libPath, flowPath := "", ""
		// agree takes the part a file says into the part of t, or says
		// where two files disagree on it.
		agree := func(part, flag string, said string, have, from *string, i int) error {
			switch {
			case said == "" || said == *have || hasFlag(c, flag) && c.IsSet(flag):
			case *have == "":
				*have, *from = said, files[i]
			default:
				return usage(c, "--start %s was made for %s %s, %s for %s %s: give start files made for one %s, or --%s", *from, part, *have, files[i], part, said, part, flag)
			}
			return nil
		}
		for i, d := range docs {
			if err := agree("library", "liberty", d.target.Library, &t.Library, &libPath, i); err != nil {
				return adder.Target{}, "", err
			}
			if err := agree("flow", "flow", d.target.Flow, &t.Flow, &flowPath, i); err != nil {
				return adder.Target{}, "", err
			}
		}
		return t, cmp.Or(libPath, flowPath, files[0]), nil
	}
	return adder.Target{}, "", nil
}

// readStarts reads the documents optimize's --start names, once per run
// (readOnce): the first error stops it.
func readStarts(c *cli.Context) ([]*document, error) {
	if ds, ok := c.App.Metadata[startKey].([]*document); ok {
		return ds, nil
	}
	var ds []*document
	for _, path := range c.StringSlice("start") {
		d := readDocument(c, path, "start file")
		if d.err != nil {
			return nil, d.err
		}
		ds = append(ds, d)
	}
	if c.App.Metadata == nil {
		c.App.Metadata = map[string]any{}
	}
	c.App.Metadata[startKey] = ds
	return ds, nil
}

// runTarget returns what the physical flow of opt makes adders for: its
// library, named as an adder document records it, and its flow.
func runTarget(c *cli.Context, opt physical.Options) (adder.Target, error) {
	library, err := physical.LibraryName(opt.Liberty)
	if err != nil {
		return adder.Target{}, usage(c, "%v", err)
	}
	return adder.Target{Library: library, Flow: string(cmp.Or(opt.Flow, physical.DefaultFlow))}, nil
}

// madeForWords says what an adder was made for, as in "library asap7
// through flow abc", each name cut after 40 characters as an echoed value
// is.
func madeForWords(t adder.Target) string {
	var parts []string
	if t.Library != "" {
		parts = append(parts, "library "+cutName(t.Library))
	}
	if t.Flow != "" {
		parts = append(parts, "flow "+cutName(t.Flow))
	}
	return strings.Join(parts, " through ")
}

// librarySpec returns the library the command builds or measures on:
// --liberty where it is given; otherwise the library the adder file was
// made for (madeFor), which must be one prefixgen knows by name; otherwise
// --liberty's default ("" for a command without --liberty).
func librarySpec(c *cli.Context) (string, error) {
	if !hasFlag(c, "liberty") {
		return "", nil
	}
	if c.IsSet("liberty") {
		return c.String("liberty"), nil
	}
	t, path, err := madeFor(c)
	switch {
	case err != nil:
		return "", err
	case t.Library == "" || physical.IsLibraryName(t.Library):
		return cmp.Or(t.Library, c.String("liberty")), nil
	}
	return "", usage(c, "%s was made for library %s, which prefixgen does not carry: give its Liberty file with --liberty", path, network.Quote(t.Library))
}

// flowName returns the flow the command measures through: --flow where it
// is given; otherwise the flow the adder file was made for (madeFor);
// otherwise --flow's default. A flow the file names that is not one is
// bad input.
func flowName(c *cli.Context) (physical.Flow, error) {
	name := c.String("flow")
	if !c.IsSet("flow") {
		t, path, err := madeFor(c)
		if err != nil {
			return "", err
		}
		if t.Flow != "" {
			f, err := physical.ParseFlow(t.Flow)
			if err != nil {
				return "", usage(c, "%s was made for flow %s: allowed keep, abc", path, network.Quote(t.Flow))
			}
			return f, nil
		}
	}
	f, err := physical.ParseFlow(name)
	if err != nil {
		return "", usage(c, "--flow %s unknown: allowed keep, abc", network.Quote(name))
	}
	return f, nil
}

// claim checks what a network read from a file says it is
// (topologies.CheckClaim): a registered topology's name with parameters in
// range, on that topology's very cells, or a name of the user's own. Its
// error is one line without the package's name, for "FILE: …".
func claim(net *network.Network) error {
	err := topologies.CheckClaim(net)
	if ce, ok := errors.AsType[*topologies.ClaimError](err); ok {
		return claimError{ce}
	}
	return err
}

// claimError is a *topologies.ClaimError without the package's name in
// its message.
type claimError struct{ err *topologies.ClaimError }

func (e claimError) Error() string { return strings.TrimPrefix(e.err.Error(), "topologies: ") }

func (e claimError) Unwrap() error { return e.err }

// hasFlag reports whether the command defines the flag name.
func hasFlag(c *cli.Context, name string) bool {
	return slices.ContainsFunc(c.Command.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), name) })
}

// architecture returns the architecture of the adder the command builds:
// the architecture flags the command defines (adder.ReadFlags), read over
// the --from document's where there is one. An adder document records its
// whole architecture, and a flag that contradicts it is bad usage; a
// network document's adder is the standard one, which any flag may change.
func architecture(c *cli.Context) (adder.Architecture, error) {
	var rec *adder.Recorded
	// With -t too, networks refuses both; --widths refuses --from.
	if c.String("from") != "" && c.String("topology") == "" && !c.IsSet("widths") {
		_, arch, recorded, err := readFrom(c)
		if err != nil {
			return adder.Architecture{}, err
		}
		if recorded {
			rec = &adder.Recorded{Architecture: arch, Path: c.String("from")}
		}
	}
	arch, err := adder.ReadFlags(c, rec)
	if err != nil {
		return adder.Architecture{}, adderUsage(c, err)
	}
	return arch, nil
}
