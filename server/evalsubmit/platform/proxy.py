"""What the HTTP client takes from the environment, decided here rather than inside httpx.

httpx's ``trust_env=True`` reads the environment on its own: the proxies of ``HTTP_PROXY``,
``HTTPS_PROXY``, ``ALL_PROXY`` and ``NO_PROXY`` (lower-case names too, and the system settings
on macOS and Windows), and ``SSL_CERT_FILE``/``SSL_CERT_DIR``. A proxy chosen there is one the
clear-text token check never saw. So the platform's client runs with ``trust_env=False`` and is
given, explicitly, exactly this:

* the proxy for the platform's URL, resolved by :func:`proxy_for` with httpx's own reading of the
  environment and its own URL patterns (``NO_PROXY`` respected, the most specific entry first),
  and passed as ``proxy=``: the route that is checked is the route that is used;
* ``SSL_CERT_FILE``, else ``SSL_CERT_DIR``, when no CA bundle of the SDK's is set
  (:func:`ssl_cert_from_env`), checked like any CA bundle;
* nothing else: no ``.netrc`` credentials or any other header; the only credential sent is the
  platform's token (and a proxy's own ``user:password@``, to that proxy).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

import httpx
from httpx._utils import URLPattern, get_environment_proxies

from .safety import UnsafeSetting, display_url

PROXY_VARIABLES = "HTTP_PROXY, HTTPS_PROXY, ALL_PROXY"
SSL_CERT_VARIABLES = ("SSL_CERT_FILE", "SSL_CERT_DIR")


def proxy_for(url: httpx.URL) -> httpx.Proxy | None:
    """The proxy the environment names for ``url``, or None (none set, or ``NO_PROXY`` lists
    it). :class:`UnsafeSetting` for a proxy httpx could not use."""
    mounts = {URLPattern(pattern): proxy for pattern, proxy in get_environment_proxies().items()}
    for pattern in sorted(mounts):  # httpx's order: the most specific pattern decides
        if pattern.matches(url):
            chosen = mounts[pattern]
            return None if chosen is None else _parsed(chosen)
    return None


def _parsed(proxy_url: str) -> httpx.Proxy:
    try:
        return httpx.Proxy(url=proxy_url)
    except (httpx.InvalidURL, ValueError, TypeError) as error:
        shown = display_url(proxy_url)
        raise UnsafeSetting(f"the proxy {shown!r} cannot be used ({error})") from None


def ssl_cert_from_env(env: Mapping[str, str] | None = None) -> tuple[str, str] | None:
    """(the variable, its value) of the first of ``SSL_CERT_FILE``, ``SSL_CERT_DIR`` set."""
    env = os.environ if env is None else env
    for name in SSL_CERT_VARIABLES:
        if value := env.get(name, "").strip():
            return name, value
    return None
