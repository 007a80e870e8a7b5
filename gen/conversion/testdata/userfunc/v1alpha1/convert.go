package v1alpha1

import v1 "github.com/modelgen/modelgen/gen/conversion/testdata/userfunc/v1"

// convertThingSpecAmountToV1 is the user's conversion of Amount.
func convertThingSpecAmountToV1(in *ThingSpec, out *v1.ThingSpec) error { return nil }

// convertThingSpecAmountFromV1 is the user's conversion of Amount back.
func convertThingSpecAmountFromV1(in *v1.ThingSpec, out *ThingSpec) error { return nil }
