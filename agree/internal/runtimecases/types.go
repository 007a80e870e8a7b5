// Package runtimecases is the agreement corpus of the validate keywords no
// schema can carry (the registry's runtime class): one string field per
// keyword, each a check the CRD lets through and the generated webhook
// enforces. The samples the harness tries for each keyword are in
// agree/runtime.go.
//
// +groupName=runtime.agree.modelgen.dev
// +versionName=v1
package runtimecases

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// RuntimeOnly is a resource with one runtime-only keyword per field.
//
// +kubebuilder:object:root=true
type RuntimeOnly struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              RuntimeOnlySpec `json:"spec"`
}

// RuntimeOnlySpec holds the fields.
type RuntimeOnlySpec struct {
	EqIgnoreCase            string `json:"eqignorecase" validate:"omitempty,eq_ignore_case=Hello"`
	NeIgnoreCase            string `json:"neignorecase" validate:"omitempty,ne_ignore_case=Hello"`
	Lowercase               string `json:"lowercase" validate:"omitempty,lowercase"`
	Uppercase               string `json:"uppercase" validate:"omitempty,uppercase"`
	Rgb                     string `json:"rgb" validate:"omitempty,rgb"`
	Rgba                    string `json:"rgba" validate:"omitempty,rgba"`
	Hsl                     string `json:"hsl" validate:"omitempty,hsl"`
	Hsla                    string `json:"hsla" validate:"omitempty,hsla"`
	Cmyk                    string `json:"cmyk" validate:"omitempty,cmyk"`
	Url                     string `json:"url" validate:"omitempty,url"`
	HttpUrl                 string `json:"httpurl" validate:"omitempty,http_url"`
	HttpsUrl                string `json:"httpsurl" validate:"omitempty,https_url"`
	Uri                     string `json:"uri" validate:"omitempty,uri"`
	Origin                  string `json:"origin" validate:"omitempty,origin"`
	UrnRfc8141              string `json:"urnrfc8141" validate:"omitempty,urn_rfc8141"`
	UrnRfc2141              string `json:"urnrfc2141" validate:"omitempty,urn_rfc2141"`
	UrlEncoded              string `json:"urlencoded" validate:"omitempty,url_encoded"`
	Html                    string `json:"html" validate:"omitempty,html"`
	HtmlEncoded             string `json:"htmlencoded" validate:"omitempty,html_encoded"`
	Datauri                 string `json:"datauri" validate:"omitempty,datauri"`
	File                    string `json:"file" validate:"omitempty,file"`
	Filepath                string `json:"filepath" validate:"omitempty,filepath"`
	Dir                     string `json:"dir" validate:"omitempty,dir"`
	Dirpath                 string `json:"dirpath" validate:"omitempty,dirpath"`
	Isbn                    string `json:"isbn" validate:"omitempty,isbn"`
	Isbn10                  string `json:"isbn10" validate:"omitempty,isbn10"`
	Isbn13                  string `json:"isbn13" validate:"omitempty,isbn13"`
	Issn                    string `json:"issn" validate:"omitempty,issn"`
	BtcAddr                 string `json:"btcaddr" validate:"omitempty,btc_addr"`
	BtcAddrBech32           string `json:"btcaddrbech32" validate:"omitempty,btc_addr_bech32"`
	EthAddr                 string `json:"ethaddr" validate:"omitempty,eth_addr"`
	EthAddrChecksum         string `json:"ethaddrchecksum" validate:"omitempty,eth_addr_checksum"`
	CreditCard              string `json:"creditcard" validate:"omitempty,credit_card"`
	LuhnChecksum            string `json:"luhnchecksum" validate:"omitempty,luhn_checksum"`
	Bic                     string `json:"bic" validate:"omitempty,bic"`
	BicIso93622014          string `json:"biciso93622014" validate:"omitempty,bic_iso_9362_2014"`
	HostnamePort            string `json:"hostnameport" validate:"omitempty,hostname_port"`
	Mac                     string `json:"mac" validate:"omitempty,mac"`
	Fqdn                    string `json:"fqdn" validate:"omitempty,fqdn"`
	HostnameLabel           string `json:"hostnamelabel" validate:"omitempty,hostname_label"`
	Json                    string `json:"json" validate:"omitempty,json"`
	Datetime                string `json:"datetime" validate:"omitempty,datetime=2006-01-02"`
	Timezone                string `json:"timezone" validate:"omitempty,timezone"`
	Duration                string `json:"duration" validate:"omitempty,duration"`
	Cron                    string `json:"cron" validate:"omitempty,cron"`
	MongodbConnectionString string `json:"mongodbconnectionstring" validate:"omitempty,mongodb_connection_string"`
	Spicedb                 string `json:"spicedb" validate:"omitempty,spicedb"`
	DnsRfc1035Label         string `json:"dnsrfc1035label" validate:"omitempty,dns_rfc1035_label"`
	Iso31661Alpha2          string `json:"iso31661alpha2" validate:"omitempty,iso3166_1_alpha2"`
	Iso31661Alpha2Eu        string `json:"iso31661alpha2eu" validate:"omitempty,iso3166_1_alpha2_eu"`
	Iso31661Alpha3          string `json:"iso31661alpha3" validate:"omitempty,iso3166_1_alpha3"`
	Iso31661Alpha3Eu        string `json:"iso31661alpha3eu" validate:"omitempty,iso3166_1_alpha3_eu"`
	Iso31662                string `json:"iso31662" validate:"omitempty,iso3166_2"`
	Iso4217                 string `json:"iso4217" validate:"omitempty,iso4217"`
	Bcp47LanguageTag        string `json:"bcp47languagetag" validate:"omitempty,bcp47_language_tag"`
	Bcp47StrictLanguageTag  string `json:"bcp47strictlanguagetag" validate:"omitempty,bcp47_strict_language_tag"`
	PostcodeIso3166Alpha2   string `json:"postcodeiso3166alpha2" validate:"omitempty,postcode_iso3166_alpha2=DE"`
	Port                    int32  `json:"port" validate:"omitempty,port"`
	Iso31661AlphaNumeric    int    `json:"iso31661alphanumeric" validate:"omitempty,iso3166_1_alpha_numeric"`
	Iso31661AlphaNumericEu  int    `json:"iso31661alphanumericeu" validate:"omitempty,iso3166_1_alpha_numeric_eu"`
	Iso4217Numeric          int    `json:"iso4217numeric" validate:"omitempty,iso4217_numeric"`
	Isdefault               string `json:"isdefault" validate:"isdefault"`
}
