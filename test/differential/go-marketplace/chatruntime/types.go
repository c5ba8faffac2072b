// Package chatruntime declares the manager's SKILL.md frontmatter types (chatruntime, v0.13.4)
// with their yaml tags, so that yaml.v3 decodes into the same shapes and names them the same
// way in its type errors (chatruntime.Skill, chatruntime.OngridExt, ...). The json tags are the
// harness's own, to answer the decoded fields.
package chatruntime

import "gopkg.in/yaml.v3"

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

// AgentCapability is one entry of an agent's capabilities.
type AgentCapability struct {
	ID           string   `yaml:"id" json:"id,omitempty"`
	Description  string   `yaml:"description" json:"description,omitempty"`
	Tools        []string `yaml:"tools" json:"tools,omitempty"`
	Skills       []string `yaml:"skills" json:"skills,omitempty"`
	MaxToolCalls int      `yaml:"max_tool_calls" json:"max_tool_calls,omitempty"`
}

// Agent is an agents/<name>.md frontmatter.
type Agent struct {
	Name             string            `yaml:"name" json:"name,omitempty"`
	Description      string            `yaml:"description" json:"description,omitempty"`
	WhenToUse        string            `yaml:"when_to_use" json:"when_to_use,omitempty"`
	Capabilities     []AgentCapability `yaml:"capabilities" json:"capabilities,omitempty"`
	CanDelegate      bool              `yaml:"can_delegate" json:"can_delegate,omitempty"`
	Tools            []string          `yaml:"tools" json:"tools,omitempty"`
	DisallowedTools  []string          `yaml:"disallowed_tools" json:"disallowed_tools,omitempty"`
	PermissionMode   string            `yaml:"permission_mode" json:"permission_mode,omitempty"`
	MaxTurns         int               `yaml:"max_turns" json:"max_turns,omitempty"`
	Model            string            `yaml:"model" json:"model,omitempty"`
	CriticalReminder string            `yaml:"critical_reminder" json:"critical_reminder,omitempty"`
	InitialPrompt    string            `yaml:"initial_prompt" json:"initial_prompt,omitempty"`
	Background       bool              `yaml:"background" json:"background,omitempty"`
	OmitClaudeMd     bool              `yaml:"omit_claude_md" json:"omit_claude_md,omitempty"`
	Metadata         SkillMetadata     `yaml:"metadata" json:"metadata"`
}

// commandFrontmatter is a commands/<name>.md frontmatter (unexported, as the manager's).
type commandFrontmatter struct {
	Description  string   `yaml:"description"`
	AllowedTools []string `yaml:"allowed-tools"`
}

// DecodeCommand decodes a command frontmatter as ConvertCommandFile does.
func DecodeCommand(data []byte) error {
	var fm commandFrontmatter
	return yaml.Unmarshal(data, &fm)
}
