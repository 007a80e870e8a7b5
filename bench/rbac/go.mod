module github.com/modelgen/modelgen/bench/rbac

go 1.26.0

require (
	github.com/casbin/casbin/v2 v2.135.0
	github.com/mennanov/fieldmask-utils v1.1.6
	github.com/modelgen/modelgen v0.0.0
)

require (
	github.com/bmatcuk/doublestar/v4 v4.6.1 // indirect
	github.com/casbin/govaluate v1.3.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	google.golang.org/genproto v0.0.0-20220531173845-685668d2de03 // indirect
	google.golang.org/protobuf v1.36.12-0.20260120151049-f2248ac996af // indirect
)

replace github.com/modelgen/modelgen => ../..
