// Package skill declares the manifest type exactly as the ongrid manager
// does, so that encoding/json's error texts name it the same way
// (skill.SkillManifest, SkillManifest.<tag>).
package skill

import "encoding/json"

// SkillManifest mirrors the manager's skill manifest struct.
type SkillManifest struct {
	Name           string          `json:"name"`
	Description    string          `json:"description"`
	Schema         json.RawMessage `json:"schema,omitempty"`
	Entry          string          `json:"entry"`
	EnvAllow       []string        `json:"env_allow,omitempty"`
	TimeoutSeconds int             `json:"timeout_seconds,omitempty"`
	Class          string          `json:"class,omitempty"`
	Category       string          `json:"category,omitempty"`
}
