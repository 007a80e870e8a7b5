package openapi

// JSONTree is jsonTree, for the tests of package openapi_test.
var JSONTree = jsonTree
