// Package chatruntime declares the manager's SKILL.md frontmatter types (chatruntime, v0.13.4)
// with their yaml tags, so that yaml.v3 decodes into the same shapes and names them the same
// way in its type errors (chatruntime.Skill, chatruntime.OngridExt, ...). The json tags are the
// harness's own, to answer the decoded fields.
package chatruntime

// ToolClass is the tools' class type.
type ToolClass string

type Activation struct {
	Mode     string   `yaml:"mode" json:"mode,omitempty"`
	Keywords []string `yaml:"keywords" json:"keywords,omitempty"`
}

type ToolDecl struct {
	Name           string    `yaml:"name" json:"name,omitempty"`
	Impl           string    `yaml:"impl" json:"impl,omitempty"`
	Class          ToolClass `yaml:"class" json:"class,omitempty"`
	Description    string    `yaml:"description" json:"description,omitempty"`
	WhenToUse      string    `yaml:"when_to_use" json:"when_to_use,omitempty"`
	Confirmation   string    `yaml:"confirmation" json:"confirmation,omitempty"`
	TimeoutSeconds int       `yaml:"timeout_seconds" json:"timeout_seconds,omitempty"`
}

type CredentialFile struct {
	Path    string `yaml:"path" json:"path,omitempty"`
	Content string `yaml:"content" json:"content,omitempty"`
	Mode    string `yaml:"mode" json:"mode,omitempty"`
}

type CredentialInject struct {
	Env   map[string]string `yaml:"env" json:"-"`
	Files []CredentialFile  `yaml:"files" json:"files,omitempty"`
}

type CredentialRequirement struct {
	Slot   string           `yaml:"slot" json:"slot,omitempty"`
	Label  string           `yaml:"label" json:"label,omitempty"`
	Fields []string         `yaml:"fields" json:"fields,omitempty"`
	Inject CredentialInject `yaml:"inject" json:"inject"`
}

type Requires struct {
	Bins        []string                `yaml:"bins" json:"bins,omitempty"`
	Config      []string                `yaml:"config" json:"config,omitempty"`
	Credentials []CredentialRequirement `yaml:"credentials" json:"credentials,omitempty"`
}

type OngridExt struct {
	Scope            string                   `yaml:"scope" json:"scope,omitempty"`
	EdgeRuntime      string                   `yaml:"edge_runtime" json:"edge_runtime,omitempty"`
	EdgeCapabilities []map[string]interface{} `yaml:"edge_capabilities" json:"-"`
	Activation       Activation               `yaml:"activation" json:"activation"`
	MinOngridVersion string                   `yaml:"min_ongrid_version" json:"min_ongrid_version,omitempty"`
}

type SkillMetadata struct {
	OS       []string  `yaml:"os" json:"os,omitempty"`
	Requires Requires  `yaml:"requires" json:"requires"`
	Ongrid   OngridExt `yaml:"ongrid" json:"ongrid"`
}

type Skill struct {
	Name          string        `yaml:"name" json:"name,omitempty"`
	Version       string        `yaml:"version" json:"version,omitempty"`
	Description   string        `yaml:"description" json:"description,omitempty"`
	WhenToUse     string        `yaml:"when_to_use" json:"when_to_use,omitempty"`
	Activation    Activation    `yaml:"activation" json:"activation"`
	ConfigSection string        `yaml:"config_section" json:"config_section,omitempty"`
	Tools         []ToolDecl    `yaml:"tools" json:"tools,omitempty"`
	Metadata      SkillMetadata `yaml:"metadata" json:"metadata"`
}
