"""Where evalsubmit finds the platform: base URL, workspace, token, timeout.

Each value is taken from the first source that has it, in this order:

1. explicit evalsubmit settings (`overrides`: `baseUrl`, `workspace`, `token`, `timeoutS`; the
   snake_case names `base_url`, `timeout_s` are accepted too);
2. the environment variables the NeMo Platform SDK itself reads (:mod:`evalsubmit.sdk.version`):
   `NEMO_PLATFORM_BASE_URL`, then `NMP_BASE_URL` (base URL); `NMP_ACCESS_TOKEN` (token);
   `NMP_WORKSPACE` (workspace). `NMP_CONFIG_FILE` and `NMP_CURRENT_CONTEXT` choose the config
   file and its context; `NMP_CERTIFICATE_AUTHORITY`/`NMP_CLIENT_SSL_CERT_FILE` a CA bundle;
3. the active context of the SDK's config file (`NMP_CONFIG_FILE`, else
   `$XDG_CONFIG_HOME/nmp/config.yaml` when that folder exists, else `~/.config/nmp/config.yaml`):
   `current_context` names a context, which names a cluster (`base_url`) and a user (`type:
   oauth` with `token`, or `no-auth`), and may carry a `workspace`;
4. the `workspace=` of a `NeMoPlatform(...)` in the user's code, when statically known;
5. the SDK's own defaults: `http://localhost:8080`, workspace `default`.

The token is a `SecretStr`; it is never part of a repr, a log line or a message.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator
from pydantic.alias_generators import to_camel

from evalsubmit.core.sourcefile import UnreadableSource, read_regular_file

from .safety import display_url

SDK_DEFAULT_BASE_URL = "http://localhost:8080"
SDK_DEFAULT_WORKSPACE = "default"
DEFAULT_TIMEOUT_S = 30.0
MAX_CONFIG_BYTES = 1024 * 1024

ENV_BASE_URLS = ("NEMO_PLATFORM_BASE_URL", "NMP_BASE_URL")
ENV_TOKEN = "NMP_ACCESS_TOKEN"
ENV_WORKSPACE = "NMP_WORKSPACE"
ENV_CONFIG_FILE = "NMP_CONFIG_FILE"
ENV_CONTEXT = "NMP_CURRENT_CONTEXT"
ENV_CA_BUNDLES = ("NMP_CLIENT_SSL_CERT_FILE", "NMP_CERTIFICATE_AUTHORITY")

SOURCE_SETTING = "evalsubmit setting"
SOURCE_CODE = "NeMoPlatform(workspace=...) in the code"
SOURCE_DEFAULT = "SDK default"


class SettingsModel(BaseModel):
    """Settings as editors send them: camelCase names (snake_case accepted), unknown keys
    ignored, immutable. Field titles and descriptions feed the editor's settings schema."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="ignore",
        frozen=True,
        field_title_generator=lambda name, _info: name.replace("_", " ").capitalize(),
    )


class PlatformSettings(SettingsModel):
    """Where ``Submit evaluation`` sends jobs (falls back to the SDK's env and config file)."""

    # The docstring is the settings schema's description; empty strings count as unset.

    base_url: str | None = Field(
        default=None,
        description="Base URL of the NeMo Platform, e.g. http://127.0.0.1:8080. "
        "Empty: NEMO_PLATFORM_BASE_URL, then the active context of ~/.config/nmp/config.yaml.",
    )
    workspace: str | None = Field(
        default=None, description="Workspace that submitted jobs go to (empty: SDK resolution)."
    )
    token: SecretStr | None = Field(
        default=None,
        description="Access token for the platform. Never logged or shown.",
    )
    timeout_s: float = Field(
        default=DEFAULT_TIMEOUT_S,
        ge=0.1,
        le=3600,
        allow_inf_nan=False,
        description="Time limit in seconds of each HTTP request, from connecting to the last "
        "byte of the answer.",
    )
    poll_interval_s: float = Field(
        default=2.0,
        ge=0.1,
        le=3600,
        allow_inf_nan=False,
        description="Seconds between job status polls after a submission.",
    )

    @field_validator("base_url", "workspace", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: Any) -> Any:
        if isinstance(value, str) and not value.strip():
            return None
        return value.strip() if isinstance(value, str) else value

    @field_validator("token", mode="before")
    @classmethod
    def _blank_token_is_unset(cls, value: Any) -> Any:
        # A token read with `pass show` or pasted from a file carries a newline: not part of it.
        if isinstance(value, str):
            return value.strip() or None
        return value


class ResolvedPlatformConfig(BaseModel):
    """The effective platform settings, and where each one came from."""

    model_config = ConfigDict(frozen=True)

    base_url: str
    workspace: str
    token: SecretStr | None = None
    timeout_s: float = DEFAULT_TIMEOUT_S
    ca_bundle: str | None = None
    config_path: str | None = None
    context_name: str | None = None
    sources: dict[str, str] = Field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    def debug_info(self) -> dict[str, str]:
        """Human-readable `name -> "value (source)"`; the token shows only whether it is set."""
        token = "set" if self.token is not None else "not set"
        info = {
            "base_url": f"{display_url(self.base_url)} ({self.sources.get('base_url', '?')})",
            "workspace": f"{self.workspace} ({self.sources.get('workspace', '?')})",
            "token": f"{token} ({self.sources.get('token', 'none')})",
            "timeout_s": f"{self.timeout_s:g} ({self.sources.get('timeout_s', '?')})",
            "config_file": self.config_path or "(none found)",
            "context": self.context_name or "(none)",
        }
        if self.ca_bundle:
            info["ca_bundle"] = f"{self.ca_bundle} ({self.sources.get('ca_bundle', '?')})"
        for i, warning in enumerate(self.warnings):
            info[f"warning_{i + 1}"] = warning
        return info


@dataclass
class _ContextValues:
    """Values found in the active context of the SDK config file."""

    path: Path | None = None
    context_name: str | None = None
    base_url: str | None = None
    workspace: str | None = None
    token: str | None = None
    ca_bundle: str | None = None
    warnings: list[str] = field(default_factory=list)


def default_config_path(env: Mapping[str, str]) -> Path:
    """The SDK's rule (`Config.get_default_config_path`), evaluated against `env`."""
    explicit = env.get(ENV_CONFIG_FILE)
    if explicit:
        return Path(explicit).expanduser()
    xdg = env.get("XDG_CONFIG_HOME")
    if xdg and (Path(xdg) / "nmp").exists():
        return Path(xdg) / "nmp" / "config.yaml"
    home = Path(env["HOME"]) if env.get("HOME") else Path.home()
    return home / ".config" / "nmp" / "config.yaml"


def _by_name(items: Any, name: str | None) -> dict[str, Any] | None:
    if not isinstance(items, list) or name is None:
        return None
    for item in items:
        if isinstance(item, dict) and item.get("name") == name:
            return item
    return None


def _user_token(user: dict[str, Any] | None) -> str | None:
    if user is None:
        return None
    token = user.get("token")
    if user.get("type", "no-auth") == "oauth" and isinstance(token, str) and token.strip():
        return token.strip()
    legacy = user.get("api_key")  # legacy users the SDK migrates to bearer tokens
    if isinstance(legacy, str) and legacy.strip() and "@" not in legacy:
        return legacy.strip()
    return None


def read_context(path: Path, context_override: str | None) -> _ContextValues:
    """Read the active context of an SDK config file; problems become warnings, not errors."""
    found = _ContextValues(path=path)
    try:
        text = read_regular_file(path, max_bytes=MAX_CONFIG_BYTES).decode("utf-8")
        data = yaml.safe_load(text) or {}
    except UnreadableSource as err:
        found.warnings.append(f"cannot read {path}: {err.reason}; ignored")
        return found
    except UnicodeDecodeError:
        found.warnings.append(f"{path} is not UTF-8 text; ignored")
        return found
    except yaml.YAMLError:
        found.warnings.append(f"{path} is not valid YAML; ignored")
        return found
    except RecursionError:
        found.warnings.append(f"{path} is nested too deeply to read; ignored")
        return found
    if not isinstance(data, dict):
        found.warnings.append(f"{path} does not hold a mapping; ignored")
        return found
    contexts = data.get("contexts")
    if not contexts:
        return found
    name = context_override or data.get("current_context")
    context = _by_name(contexts, name)
    if context is None:
        found.warnings.append(f"context {name!r} not found in {path}; ignored")
        return found
    found.context_name = str(name)
    cluster = _by_name(data.get("clusters"), context.get("cluster"))
    if cluster is None:
        found.warnings.append(f"cluster {context.get('cluster')!r} of context {name!r} not found")
    else:
        base_url = cluster.get("base_url")
        found.base_url = str(base_url) if base_url else None
        ca = cluster.get("certificate_authority")
        found.ca_bundle = str(ca) if ca else None
    found.token = _user_token(_by_name(data.get("users"), context.get("user")))
    workspace = context.get("workspace")
    found.workspace = str(workspace) if workspace else None
    return found


def _first_env(env: Mapping[str, str], names: tuple[str, ...]) -> tuple[str, str] | None:
    for name in names:
        value = env.get(name, "").strip()
        if value:
            return value, name
    return None


def resolve_platform_config(
    overrides: PlatformSettings | Mapping[str, Any] | None = None,
    *,
    code_workspace: str | None = None,
    env: Mapping[str, str] | None = None,
    config_path: str | os.PathLike[str] | None = None,
) -> ResolvedPlatformConfig:
    """Resolve base URL, workspace, token and timeout (see the module docstring for the order).

    `overrides` are the evalsubmit settings (a `PlatformSettings` or a mapping with snake_case
    or camelCase keys). `config_path` replaces the SDK's config-file lookup. Never raises for a
    bad config file: its problems are listed in `warnings`.
    """
    env = os.environ if env is None else env
    setting_warnings: list[str] = []
    settings = (
        overrides
        if isinstance(overrides, PlatformSettings)
        else _validate_settings(dict(overrides or {}), setting_warnings)
    )
    sources: dict[str, str] = {}
    path, context = _find_context(env, config_path)
    ctx_label = f"nmp config {path} (context {context.context_name!r})"

    # Base URL
    env_url = _first_env(env, ENV_BASE_URLS)
    if settings.base_url:
        base_url, sources["base_url"] = settings.base_url, SOURCE_SETTING
    elif env_url:
        base_url, sources["base_url"] = env_url[0], f"env {env_url[1]}"
    elif context.base_url:
        base_url, sources["base_url"] = context.base_url, ctx_label
    else:
        base_url, sources["base_url"] = SDK_DEFAULT_BASE_URL, SOURCE_DEFAULT
    base_url = base_url.rstrip("/")

    # Workspace
    env_ws = env.get(ENV_WORKSPACE, "").strip()
    if settings.workspace:
        workspace, sources["workspace"] = settings.workspace, SOURCE_SETTING
    elif env_ws:
        workspace, sources["workspace"] = env_ws, f"env {ENV_WORKSPACE}"
    elif context.workspace:
        workspace, sources["workspace"] = context.workspace, ctx_label
    elif code_workspace:
        workspace, sources["workspace"] = code_workspace, SOURCE_CODE
    else:
        workspace, sources["workspace"] = SDK_DEFAULT_WORKSPACE, SOURCE_DEFAULT

    # Token
    token: SecretStr | None = None
    env_token = env.get(ENV_TOKEN, "").strip()
    if settings.token is not None:
        token, sources["token"] = settings.token, SOURCE_SETTING
    elif env_token:
        token, sources["token"] = SecretStr(env_token), f"env {ENV_TOKEN}"
    elif context.token:
        token, sources["token"] = SecretStr(context.token), ctx_label

    # Timeout (no SDK variable exists for it)
    timeout_s = settings.timeout_s
    chosen = "timeout_s" in settings.model_fields_set
    sources["timeout_s"] = SOURCE_SETTING if chosen else "evalsubmit default"

    # CA bundle
    ca_bundle: str | None = None
    env_ca = _first_env(env, ENV_CA_BUNDLES)
    if env_ca:
        ca_bundle, sources["ca_bundle"] = env_ca[0], f"env {env_ca[1]}"
    elif context.ca_bundle:
        ca_bundle, sources["ca_bundle"] = context.ca_bundle, ctx_label

    return ResolvedPlatformConfig(
        base_url=base_url,
        workspace=workspace,
        token=token,
        timeout_s=timeout_s,
        ca_bundle=ca_bundle,
        config_path=str(path) if context.path is not None else None,
        context_name=context.context_name,
        sources=sources,
        warnings=tuple(setting_warnings + context.warnings),
    )


def _find_context(
    env: Mapping[str, str], config_path: str | os.PathLike[str] | None
) -> tuple[Path, _ContextValues]:
    """The config file and its active context; whatever goes wrong is a warning."""
    try:
        path = Path(config_path).expanduser() if config_path else default_config_path(env)
    except (OSError, RuntimeError, ValueError) as err:  # no home folder, a bad path
        return Path("~/.config/nmp/config.yaml"), _ContextValues(
            warnings=[f"cannot locate the nmp config file ({err})"]
        )
    try:
        exists = path.is_file()
    except (OSError, ValueError) as err:
        return path, _ContextValues(warnings=[f"cannot read {path}: {err}"])
    if exists:
        try:
            return path, read_context(path, env.get(ENV_CONTEXT) or None)
        except Exception as err:  # a shape no rule above expected: still never raise
            return path, _ContextValues(warnings=[f"cannot use {path}: {type(err).__name__}"])
    context = _ContextValues()
    if config_path or env.get(ENV_CONFIG_FILE):
        missing = "is not a regular file" if os.path.lexists(path) else "not found"
        context.warnings.append(f"config file {path} {missing}; ignored")
    return path, context


def _validate_settings(raw: dict[str, Any], warnings: list[str]) -> PlatformSettings:
    """The settings, minus any value that does not validate (each one becomes a warning)."""
    for _ in range(len(raw) + 1):
        try:
            return PlatformSettings.model_validate(raw)
        except ValidationError as err:
            bad = {str(e["loc"][0]) for e in err.errors() if e.get("loc")}
            if not bad & raw.keys():
                break
            for key in bad & raw.keys():
                shown = "<hidden>" if key == "token" else display_url(repr(raw[key]))
                warnings.append(f"setting {key}={shown} ignored: not a valid value")
                del raw[key]
    return PlatformSettings()
