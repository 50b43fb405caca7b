package emit

// OddNetwork lends the external tests the network that takes every unusual
// path of the layout.
var OddNetwork = oddNetwork
