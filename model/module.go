package model

// ModuleRoot returns the root directory of the module holding dir (where
// its go.mod is), or "" outside any module. Backends that write one file
// per module (the role of a module's +kubebuilder:rbac markers) group
// root packages by it.
func ModuleRoot(dir string) string {
	_, root := moduleOf(dir)
	return root
}
