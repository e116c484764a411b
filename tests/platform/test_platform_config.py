"""Config resolution order: settings > SDK env vars > nmp config context > code > defaults."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import yaml
from pydantic import SecretStr

from evalsubmit.platform import PlatformSettings, resolve_platform_config
from evalsubmit.platform.config import default_config_path

SECRET = "tok-SECRET-abc123"


def write_config(path: Path, *, current: str = "remote", workspace: str | None = "ctx-ws") -> Path:
    remote_ctx = {"name": "remote", "cluster": "prod", "user": "prod-user"}
    if workspace:
        remote_ctx["workspace"] = workspace
    data = {
        "current_context": current,
        "clusters": [
            {"name": "prod", "base_url": "https://nmp.example.com/"},
            {"name": "local", "base_url": "http://localhost:8123"},
        ],
        "users": [
            {"name": "prod-user", "type": "oauth", "token": "ctx-token-xyz"},
            {"name": "local-user", "type": "no-auth"},
        ],
        "contexts": [remote_ctx, {"name": "local", "cluster": "local", "user": "local-user"}],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data))
    return path


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


def test_defaults_when_nothing_is_configured(home: Path) -> None:
    cfg = resolve_platform_config(None, env={"HOME": str(home)})
    assert cfg.base_url == "http://localhost:8080"
    assert cfg.workspace == "default"
    assert cfg.token is None
    assert cfg.timeout_s == 30.0
    assert cfg.sources["base_url"] == "SDK default"
    assert cfg.config_path is None


def test_code_workspace_is_the_last_resort(home: Path) -> None:
    cfg = resolve_platform_config({}, code_workspace="from-code", env={"HOME": str(home)})
    assert cfg.workspace == "from-code"
    assert cfg.sources["workspace"].startswith("NeMoPlatform(workspace=")


def test_config_context_from_home(home: Path) -> None:
    write_config(home / ".config" / "nmp" / "config.yaml")
    cfg = resolve_platform_config({}, code_workspace="from-code", env={"HOME": str(home)})
    assert cfg.base_url == "https://nmp.example.com"
    assert cfg.workspace == "ctx-ws"  # the context's workspace beats the code's
    assert cfg.token is not None and cfg.token.get_secret_value() == "ctx-token-xyz"
    assert cfg.context_name == "remote"
    assert "context 'remote'" in cfg.sources["base_url"]


def test_context_without_workspace_falls_back_to_code(home: Path) -> None:
    write_config(home / ".config" / "nmp" / "config.yaml", workspace=None)
    cfg = resolve_platform_config({}, code_workspace="from-code", env={"HOME": str(home)})
    assert cfg.workspace == "from-code"


def test_env_beats_config_and_selects_context(home: Path, tmp_path: Path) -> None:
    path = write_config(tmp_path / "elsewhere.yaml")
    env = {"HOME": str(home), "NMP_CONFIG_FILE": str(path), "NMP_CURRENT_CONTEXT": "local"}
    cfg = resolve_platform_config({}, env=env)
    assert cfg.base_url == "http://localhost:8123"
    assert cfg.token is None  # the local context's user is no-auth
    assert cfg.context_name == "local"
    env |= {
        "NMP_BASE_URL": "http://nmp-base:1",
        "NMP_ACCESS_TOKEN": "env-token",
        "NMP_WORKSPACE": "env-ws",
    }
    cfg = resolve_platform_config({}, env=env)
    assert (cfg.base_url, cfg.workspace) == ("http://nmp-base:1", "env-ws")
    assert cfg.token is not None and cfg.token.get_secret_value() == "env-token"
    assert cfg.sources["token"] == "env NMP_ACCESS_TOKEN"
    # NEMO_PLATFORM_BASE_URL wins over NMP_BASE_URL, as in NeMoPlatform()
    cfg = resolve_platform_config({}, env=env | {"NEMO_PLATFORM_BASE_URL": "http://nemo:2/"})
    assert cfg.base_url == "http://nemo:2"
    assert cfg.sources["base_url"] == "env NEMO_PLATFORM_BASE_URL"


def test_settings_beat_everything(home: Path) -> None:
    write_config(home / ".config" / "nmp" / "config.yaml")
    env = {
        "HOME": str(home),
        "NEMO_PLATFORM_BASE_URL": "http://env:1",
        "NMP_ACCESS_TOKEN": "env-token",
        "NMP_WORKSPACE": "env-ws",
    }
    settings = {"baseUrl": "http://set:9", "workspace": "set-ws", "token": SECRET}
    cfg = resolve_platform_config(settings | {"timeoutS": 5}, env=env)
    assert (cfg.base_url, cfg.workspace, cfg.timeout_s) == ("http://set:9", "set-ws", 5.0)
    assert cfg.token is not None and cfg.token.get_secret_value() == SECRET
    assert {cfg.sources[k] for k in ("base_url", "workspace", "token", "timeout_s")} == {
        "evalsubmit setting"
    }
    # snake_case keys and a PlatformSettings object work too; blank strings are "unset"
    cfg2 = resolve_platform_config(
        PlatformSettings(base_url="http://s:1", workspace="  ", timeout_s=2), env=env
    )
    assert (cfg2.base_url, cfg2.workspace) == ("http://s:1", "env-ws")


def test_xdg_config_home_is_used_only_when_its_nmp_folder_exists(tmp_path: Path) -> None:
    xdg = tmp_path / "xdg"
    env = {"HOME": str(tmp_path / "h"), "XDG_CONFIG_HOME": str(xdg)}
    assert default_config_path(env) == tmp_path / "h" / ".config" / "nmp" / "config.yaml"
    write_config(xdg / "nmp" / "config.yaml")
    assert default_config_path(env) == xdg / "nmp" / "config.yaml"
    assert resolve_platform_config({}, env=env).base_url == "https://nmp.example.com"


def test_explicit_config_path_argument(tmp_path: Path) -> None:
    path = write_config(tmp_path / "c.yaml", current="local")
    cfg = resolve_platform_config({}, env={"HOME": str(tmp_path)}, config_path=path)
    assert cfg.base_url == "http://localhost:8123"
    assert cfg.config_path == str(path)


@pytest.mark.parametrize(
    "text",
    [
        "{not yaml: [",
        "- a list\n",
        "current_context: nope\ncontexts: [{name: x, cluster: c, user: u}]\n",
    ],
)
def test_broken_config_files_become_warnings(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    cfg = resolve_platform_config({}, env={"HOME": str(tmp_path), "NMP_CONFIG_FILE": str(path)})
    assert cfg.base_url == "http://localhost:8080"
    assert cfg.warnings


def test_legacy_api_key_user_is_a_token(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(
        yaml.safe_dump(
            {
                "current_context": "d",
                "clusters": [{"name": "c", "base_url": "http://c:1"}],
                "users": [{"name": "u", "type": "api-key", "api_key": "legacy-key"}],
                "contexts": [{"name": "d", "cluster": "c", "user": "u"}],
            }
        )
    )
    cfg = resolve_platform_config({}, env={"NMP_CONFIG_FILE": str(path), "HOME": str(tmp_path)})
    assert cfg.token is not None and cfg.token.get_secret_value() == "legacy-key"


def test_token_never_appears_in_repr_debug_info_or_logs(
    home: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    cfg = resolve_platform_config({"token": SECRET}, env={"HOME": str(home)})
    for text in (repr(cfg), str(cfg), str(cfg.debug_info()), cfg.model_dump_json(), caplog.text):
        assert SECRET not in text
    assert cfg.debug_info()["token"] == "set (evalsubmit setting)"
    assert isinstance(cfg.token, SecretStr)


def test_missing_nmp_config_file_is_a_warning(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "NMP_CONFIG_FILE": str(tmp_path / "missing.yaml")}
    cfg = resolve_platform_config({}, env=env)
    assert cfg.base_url == "http://localhost:8080"
    assert any("not found" in w for w in cfg.warnings)


def test_invalid_setting_values_are_ignored_with_a_warning(home: Path) -> None:
    cfg = resolve_platform_config(
        {"timeoutS": 0, "token": 12345, "workspace": "ok-ws"}, env={"HOME": str(home)}
    )
    assert cfg.timeout_s == 30.0 and cfg.workspace == "ok-ws" and cfg.token is None
    assert any("timeoutS=0 ignored" in w for w in cfg.warnings)
    assert any("token=<hidden> ignored" in w for w in cfg.warnings)
    assert "12345" not in str(cfg.warnings)
    snake = resolve_platform_config(
        {"timeout_s": -1, "base_url": "http://x:1"}, env={"HOME": str(home)}
    )
    assert snake.base_url == "http://x:1" and snake.timeout_s == 30.0
    assert snake.warnings == ("setting timeout_s=-1 ignored: not a valid value",)
