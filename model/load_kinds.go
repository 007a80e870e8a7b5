package model

// The entry points of a package: its kinds and lists, found as controller-gen finds them.

import (
	"fmt"
	"go/types"
	"maps"
	"slices"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

// typeInfos collects controller-tools' type infos (docs and markers) of a package.
func (b *builder) typeInfos(p *loader.Package) map[string]*markers.TypeInfo {
	if infos, ok := b.infos[p]; ok {
		return infos
	}
	infos := map[string]*markers.TypeInfo{}
	b.infos[p] = infos
	b.m.Checker.Check(p)
	if err := markers.EachType(b.m.Collector, p, func(info *markers.TypeInfo) {
		infos[info.Name] = info
	}); err != nil {
		pos := clausePos(p)
		if !pos.IsValid() {
			pos = Pos{File: p.PkgPath}
		}
		b.m.Diags.Errorf(pos, "%v", err)
	}
	return infos
}

// selectRoots selects the entry points of a package: its Kubernetes kinds,
// found as controller-gen finds them (see groupKinds), the lists of those
// kinds, and its +modelgen:model types.
func (b *builder) selectRoots(p *loader.Package) {
	infos := b.typeInfos(p)
	group, skipped := b.packageGroup(p)
	kinds := b.groupKinds()[group]
	var noGroup []*markers.TypeInfo
	for _, n := range slices.Sorted(maps.Keys(infos)) {
		info := infos[n]
		object := kindOf(p, info) != notObject || info.Markers.Get(rootMarker.Name) == true
		if object && group == "" && !skipped {
			noGroup = append(noGroup, info)
		}
		kind := group != "" && kinds[n] && info.Markers.Get("kubebuilder:skipversion") == nil
		list := group != "" && object && strings.HasSuffix(n, "List") && kinds[strings.TrimSuffix(n, "List")] &&
			infos[strings.TrimSuffix(n, "List")] != nil && infos[strings.TrimSuffix(n, "List")].Markers.Get("kubebuilder:skipversion") == nil
		model := info.Markers.Get(ModelMarker.Name) != nil
		if !kind && !list && !model {
			continue
		}
		t := b.typeFor(p, n)
		if t == nil {
			continue
		}
		t.Root, t.Model = kind || list, model
		if kind {
			t.Resource = resourceOf(t)
		}
	}
	if len(noGroup) > 0 {
		b.noteNoGroup(p, noGroup)
	}
}

// kindsFound, when set (by a test), sees every search of groupKinds.
var kindsFound func()

// groupKinds returns the kinds of each group as controller-gen's CRD
// generator finds them: a struct embedding metav1.TypeMeta and
// metav1.ObjectMeta in a package of the run with a +groupName (and without
// +kubebuilder:skip) makes its name a kind of the group, and then a type of
// that name in any package of the group is a version of it (as
// `type Gateway v1.Gateway` in gateway-api's v1beta1).
//
// They are found once per load: every package's roots ask, and finding
// them reads every type of every package of the run.
func (b *builder) groupKinds() map[string]map[string]bool {
	if b.kinds != nil {
		return b.kinds
	}
	if kindsFound != nil {
		kindsFound()
	}
	out := map[string]map[string]bool{}
	b.kinds = out
	for _, p := range b.m.Loaded {
		group, _ := b.packageGroup(p)
		if group == "" {
			continue
		}
		for name, info := range b.typeInfos(p) {
			if kindOf(p, info) == kubeKind {
				if out[group] == nil {
					out[group] = map[string]bool{}
				}
				out[group][name] = true
			}
		}
	}
	return out
}

// packageGroup returns the +groupName of a package, and whether the package
// opted out of CRD generation with +kubebuilder:skip.
func (b *builder) packageGroup(p *loader.Package) (group string, skip bool) {
	pm, err := markers.PackageMarkers(b.m.Collector, p)
	if err != nil {
		return "", false
	}
	if pm.Get("kubebuilder:skip") != nil {
		return "", true
	}
	g, _ := pm.Get("groupName").(string)
	return g, false
}

// noteNoGroup says once per package that its objects are skipped because
// the package has no +groupName, as controller-gen skips them.
func (b *builder) noteNoGroup(p *loader.Package, infos []*markers.TypeInfo) {
	names := make([]string, len(infos))
	for i, info := range infos {
		names[i] = info.Name
	}
	if len(names) > 3 {
		names = append(names[:3], fmt.Sprintf("and %d more", len(infos)-3))
	}
	b.m.Diags.Warnf(b.position(p, infos[0].RawSpec.Name.Pos()),
		"package %s has no +groupName marker, so its objects (%s) get no CRD and no API paths, as with controller-gen; add `// +groupName=<group>` to the package comment to generate them",
		p.PkgPath, strings.Join(names, ", "))
}

type objectKind int

const (
	notObject objectKind = iota
	kubeKind             // embeds TypeMeta and ObjectMeta: a CRD kind
	kubeList             // embeds TypeMeta and ListMeta
)

const metav1Path = "k8s.io/apimachinery/pkg/apis/meta/v1"

// kindOf tells a Kubernetes kind from a list and from anything else the way
// controller-gen's FindKubeKinds does: by the metav1 types the struct
// embeds, whatever its markers say.
func kindOf(p *loader.Package, info *markers.TypeInfo) objectKind {
	embeds := map[string]bool{}
	for _, f := range info.Fields {
		if f.Name != "" || p.TypesInfo == nil {
			continue
		}
		named, ok := types.Unalias(p.TypesInfo.TypeOf(f.RawField.Type)).(*types.Named)
		if !ok || named.Obj().Pkg() == nil || loader.NonVendorPath(named.Obj().Pkg().Path()) != metav1Path {
			continue
		}
		embeds[named.Obj().Name()] = true
	}
	switch {
	case !embeds["TypeMeta"]:
		return notObject
	case embeds["ObjectMeta"]:
		return kubeKind
	case embeds["ListMeta"]:
		return kubeList
	}
	return notObject
}
