package notaphase

// +modelgen:model
type Order struct {
	Count int    `json:"count" state:"initial=A;A->B:Go"`
	Name  string `json:"name" state:"initial=A;A->B:Go"`
}
