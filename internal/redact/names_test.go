package redact

import "testing"

func TestSecretName(t *testing.T) {
	for _, name := range []string{
		"TOKEN", "GITHUB_TOKEN", "GITHUB_PERSONAL_ACCESS_TOKEN", "githubToken", "access-token",
		"SECRET", "CLIENT_SECRET", "clientSecret", "PASSWORD", "db_password", "PASSWD",
		"PASSPHRASE", "DB_PASS", "SMTPPASS", "MYSQL_PWD", "GITHUB_PAT",
		"API_KEY", "apiKey", "APIKey", "APIKEY", "X-Api-Key", "ACCESS_KEY_ID", "private_key",
		"AUTH", "AUTH_HEADER", "Authorization", "OAUTH_CLIENT_ID", "CREDENTIALS", "GOOGLE_APPLICATION_CREDENTIAL",
		"cookie", "BEARER",
		"--api-key", "--token", "--password", "--secret", "-token", "--auth",
	} {
		if !SecretName(name) {
			t.Errorf("SecretName(%q) = false", name)
		}
	}
	for _, name := range []string{
		"", "p", "-p", "--port", "PATH", "HOME", "TZ", "LOG", "PWD", "OLDPWD", "USER",
		"max_tokens", "maxTokens", "env_keys", "KEYBOARD", "BYPASS_CACHE", "COMPASS",
		"GIT_AUTHOR_NAME", "AUTHOR", "AUTHORS", "CERTIFICATE_AUTHORITY",
		"TOKEN_FILE", "--token-file", "KEY_PATH", "bearer_token_env_var", "AUTH_TYPE", "SSH_AUTH_SOCK",
		"SECRET_NAME", "API_KEY_ENV", "TOKEN_URL", "--no-auth", "NO_AUTH", "url", "command", "args",
	} {
		if SecretName(name) {
			t.Errorf("SecretName(%q) = true", name)
		}
	}
}
