"""401/403 from a real platform with authentication on (opt-in: it starts a second platform).

Run with EVALSUBMIT_AUTH_PLATFORM_TEST=1. Verified: no token or an invalid token -> 401, an
unsigned test JWT of a principal without a role -> 403; the token never shows in the message.
"""

from __future__ import annotations

import base64
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from evalsubmit.platform import PlatformClient, PlatformError, PlatformErrorKind
from platform_service import free_port, load_local_platform

pytestmark = [
    pytest.mark.platform,
    pytest.mark.skipif(
        os.environ.get("EVALSUBMIT_AUTH_PLATFORM_TEST") != "1",
        reason="starts a second platform; set EVALSUBMIT_AUTH_PLATFORM_TEST=1",
    ),
]


def unsigned_jwt(principal: str) -> str:
    def part(data: dict[str, object]) -> str:
        return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()

    now = int(time.time())
    claims = {"sub": principal, "email": principal, "iat": now, "exp": now + 3600}
    return f"{part({'alg': 'none', 'typ': 'JWT'})}.{part(claims)}."


@pytest.fixture(scope="module")
def auth_platform(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    lp = load_local_platform()
    data_dir: Path = tmp_path_factory.mktemp("nmp-auth")
    running = lp.start_platform(free_port(), data_dir, timeout_s=120.0, auth=True)
    try:
        yield running.base_url
    finally:
        lp.stop_pid(running.pid)


@pytest.mark.parametrize(
    ("token", "kind", "status"),
    [
        (None, PlatformErrorKind.UNAUTHORIZED, 401),
        ("not-a-valid-token-123", PlatformErrorKind.UNAUTHORIZED, 401),
        (unsigned_jwt("nobody@example.com"), PlatformErrorKind.FORBIDDEN, 403),
    ],
    ids=["no-token", "invalid-token", "no-role"],
)
async def test_token_problems(
    auth_platform: str, token: str | None, kind: PlatformErrorKind, status: int
) -> None:
    async with PlatformClient(auth_platform, token=token, timeout_s=30) as client:
        with pytest.raises(PlatformError) as info:
            await client.get_taskset("default", "smoke")
    err = info.value
    assert err.kind is kind and err.status_code == status
    assert "token" in err.message
    if token:
        assert token not in err.message and token not in repr(err)
