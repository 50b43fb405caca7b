module github.com/prefixgen/prefixgen

go 1.26

require (
	github.com/emicklei/dot v1.6.2
	github.com/stretchr/testify v1.12.1
	github.com/urfave/cli/v2 v2.27.7
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/cpuguy83/go-md2man/v2 v2.0.7 // indirect
	github.com/russross/blackfriday/v2 v2.1.0 // indirect
	github.com/xrash/smetrics v0.0.0-20240521201337-686a1a2994c1 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
