/**
 * The manager's audit tables as its ORM (gorm v1.31 AutoMigrate) creates them, for MySQL and
 * SQLite (notes/manager-research.md §4.1–4.4). For tests, fixture writers and the bench only:
 * `audit tail` never creates anything in a manager's database.
 */
import { SKILL_EXECUTIONS_DDL } from './local-store.js'

export type Dialect = 'mysql' | 'sqlite'

const MYSQL = [
  `CREATE TABLE IF NOT EXISTS \`skill_executions\` (
  \`id\` bigint unsigned AUTO_INCREMENT,
  \`skill_key\` varchar(128) NOT NULL,
  \`edge_id\` bigint unsigned NOT NULL,
  \`caller_id\` bigint unsigned NOT NULL,
  \`caller_role\` varchar(16) NOT NULL,
  \`class\` varchar(16) NOT NULL,
  \`params_json\` text NOT NULL,
  \`result_json\` text,
  \`error\` text,
  \`started_at\` datetime(3) NOT NULL,
  \`finished_at\` datetime(3) NOT NULL,
  \`created_at\` datetime(3) NULL,
  PRIMARY KEY (\`id\`),
  INDEX \`idx_skill_executions_key\` (\`skill_key\`),
  INDEX \`idx_skill_executions_edge\` (\`edge_id\`),
  INDEX \`idx_skill_executions_started\` (\`started_at\`)
)`,
  `CREATE TABLE IF NOT EXISTS \`chat_sessions\` (
  \`id\` char(36),
  \`user_id\` bigint unsigned NOT NULL,
  \`title\` varchar(256) NOT NULL,
  \`scope_json\` text NULL,
  \`root_session_id\` varchar(36) NULL,
  \`initiator\` varchar(16) NOT NULL DEFAULT 'user',
  \`audience\` varchar(16) NOT NULL DEFAULT 'user',
  \`owner_agent_id\` varchar(128) NULL,
  \`agent_id\` varchar(128) NULL,
  \`parent_session_id\` varchar(36) NULL,
  \`background\` boolean NOT NULL DEFAULT false,
  \`related_incident_id\` bigint unsigned NULL,
  \`kind\` varchar(16) NOT NULL DEFAULT 'user',
  \`created_at\` datetime(3) NULL,
  \`updated_at\` datetime(3) NULL,
  \`closed_at\` datetime(3) NULL,
  PRIMARY KEY (\`id\`),
  INDEX \`idx_chat_sessions_user_id\` (\`user_id\`),
  INDEX \`idx_chat_sessions_root_session_id\` (\`root_session_id\`),
  INDEX \`idx_chat_sessions_owner_agent_id\` (\`owner_agent_id\`),
  INDEX \`idx_chat_sessions_agent_id\` (\`agent_id\`),
  INDEX \`idx_chat_sessions_parent_session_id\` (\`parent_session_id\`),
  INDEX \`idx_chat_sessions_related_incident_id\` (\`related_incident_id\`),
  INDEX \`idx_session_kind_created\` (\`kind\`)
)`,
  `CREATE TABLE IF NOT EXISTS \`chat_messages\` (
  \`id\` char(36),
  \`session_id\` char(36) NOT NULL,
  \`role\` varchar(16) NOT NULL,
  \`content\` text NULL,
  \`tool_call_id\` varchar(64) NULL,
  \`tool_name\` varchar(64) NULL,
  \`model\` varchar(64) NULL,
  \`prompt_tokens\` bigint NULL,
  \`completion_tokens\` bigint NULL,
  \`created_at\` datetime(3) NULL,
  PRIMARY KEY (\`id\`),
  INDEX \`idx_session_msg\` (\`session_id\`),
  CONSTRAINT \`chk_chat_messages_role\` CHECK (role IN ('user','assistant','tool','system'))
)`,
  `CREATE TABLE IF NOT EXISTS \`chat_tool_calls\` (
  \`id\` char(36),
  \`message_id\` char(36) NOT NULL,
  \`tool_name\` varchar(64) NOT NULL,
  \`arguments_json\` text NOT NULL,
  \`result_json\` text NULL,
  \`status\` varchar(16) NOT NULL DEFAULT 'pending',
  \`error\` varchar(512) NULL,
  \`started_at\` datetime(3) NULL,
  \`ended_at\` datetime(3) NULL,
  \`device_id\` bigint unsigned NULL,
  \`llm_call_id\` varchar(64) NULL,
  \`created_at\` datetime(3) NULL,
  PRIMARY KEY (\`id\`),
  INDEX \`idx_chat_tool_calls_message_id\` (\`message_id\`),
  CONSTRAINT \`chk_chat_tool_calls_status\` CHECK (status IN ('pending','success','error','timeout'))
)`,
]

const SQLITE = [
  SKILL_EXECUTIONS_DDL,
  `CREATE TABLE IF NOT EXISTS \`chat_sessions\` (
  \`id\` char(36),
  \`user_id\` integer NOT NULL,
  \`title\` text NOT NULL,
  \`scope_json\` text NULL,
  \`root_session_id\` text NULL,
  \`initiator\` text NOT NULL DEFAULT "user",
  \`audience\` text NOT NULL DEFAULT "user",
  \`owner_agent_id\` text NULL,
  \`agent_id\` text NULL,
  \`parent_session_id\` text NULL,
  \`background\` numeric NOT NULL DEFAULT false,
  \`related_incident_id\` integer NULL,
  \`kind\` text NOT NULL DEFAULT "user",
  \`created_at\` datetime NULL,
  \`updated_at\` datetime NULL,
  \`closed_at\` datetime NULL,
  PRIMARY KEY (\`id\`)
);
CREATE INDEX IF NOT EXISTS \`idx_chat_sessions_user_id\` ON \`chat_sessions\`(\`user_id\`);
CREATE INDEX IF NOT EXISTS \`idx_chat_sessions_root_session_id\` ON \`chat_sessions\`(\`root_session_id\`);
CREATE INDEX IF NOT EXISTS \`idx_chat_sessions_owner_agent_id\` ON \`chat_sessions\`(\`owner_agent_id\`);
CREATE INDEX IF NOT EXISTS \`idx_chat_sessions_agent_id\` ON \`chat_sessions\`(\`agent_id\`);
CREATE INDEX IF NOT EXISTS \`idx_chat_sessions_parent_session_id\` ON \`chat_sessions\`(\`parent_session_id\`);
CREATE INDEX IF NOT EXISTS \`idx_chat_sessions_related_incident_id\` ON \`chat_sessions\`(\`related_incident_id\`);
CREATE INDEX IF NOT EXISTS \`idx_session_kind_created\` ON \`chat_sessions\`(\`kind\`)`,
  `CREATE TABLE IF NOT EXISTS \`chat_messages\` (
  \`id\` char(36),
  \`session_id\` char(36) NOT NULL,
  \`role\` text NOT NULL,
  \`content\` text NULL,
  \`tool_call_id\` text NULL,
  \`tool_name\` text NULL,
  \`model\` text NULL,
  \`prompt_tokens\` integer NULL,
  \`completion_tokens\` integer NULL,
  \`created_at\` datetime NULL,
  PRIMARY KEY (\`id\`),
  CONSTRAINT \`chk_chat_messages_role\` CHECK (role IN ('user','assistant','tool','system'))
);
CREATE INDEX IF NOT EXISTS \`idx_session_msg\` ON \`chat_messages\`(\`session_id\`)`,
  `CREATE TABLE IF NOT EXISTS \`chat_tool_calls\` (
  \`id\` char(36),
  \`message_id\` char(36) NOT NULL,
  \`tool_name\` text NOT NULL,
  \`arguments_json\` text NOT NULL,
  \`result_json\` text NULL,
  \`status\` text NOT NULL DEFAULT "pending",
  \`error\` text NULL,
  \`started_at\` datetime NULL,
  \`ended_at\` datetime NULL,
  \`device_id\` integer NULL,
  \`llm_call_id\` text NULL,
  \`created_at\` datetime NULL,
  PRIMARY KEY (\`id\`),
  CONSTRAINT \`chk_chat_tool_calls_status\` CHECK (status IN ('pending','success','error','timeout'))
);
CREATE INDEX IF NOT EXISTS \`idx_chat_tool_calls_message_id\` ON \`chat_tool_calls\`(\`message_id\`)`,
]

/**
 * The statements that create the manager's four audit tables (skill_executions, chat_sessions,
 * chat_messages, chat_tool_calls) with their indexes. MySQL: one CREATE TABLE per entry (mysql2
 * runs one statement per query); SQLite: entries for `Database.exec`, indexes included.
 */
export function managerDdl(dialect: Dialect): readonly string[] {
  return dialect === 'mysql' ? MYSQL : SQLITE
}
