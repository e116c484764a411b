"""What may be sent to a platform, and what may be shown of it: URLs, tokens, TLS, secrets.

* A base URL must be ``http://`` or ``https://`` with a host and a port in 1-65535; anything else
  (``:80800``, ``http://[::1``, ``localhost:8080``) is a configuration error naming the value's
  source, before any socket is opened.
* A token is one line of visible ASCII (what a ``Bearer`` header can carry). Surrounding blanks
  are stripped where it is read; anything else is refused with the position of the first bad
  character, never with the token.
* ``redact`` removes every form of the token a message can hold: raw, as Python's repr or JSON
  would quote it, URL-encoded, in another case, and any prefix of 8 characters or more (a cut
  message, a proxy that echoes part of it). Callers redact *before* they shorten a message.
* ``display_url`` hides the user info of a URL (``http://user:pw@host`` -> ``http://***@host``).
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
import ssl
import stat
from urllib.parse import quote, quote_plus

import httpx

MAX_CA_BUNDLE_BYTES = 10 * 1024 * 1024
MIN_PREFIX = 8
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/@\s]+@")


class UnsafeSetting(ValueError):
    """A platform setting that cannot be used; the message says why, never the token."""


def check_base_url(url: str) -> httpx.URL:
    """The parsed URL, or :class:`UnsafeSetting` with the reason."""
    shown = display_url(url)
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, ValueError, TypeError) as error:
        raise UnsafeSetting(f"{shown!r} is not a valid URL ({error})") from None
    if parsed.scheme not in ("http", "https"):
        hint = f" (did you mean 'http://{url}'?)" if "://" not in url else ""
        raise UnsafeSetting(f"{shown!r} does not start with http:// or https://{hint}")
    if not parsed.host or any(c in parsed.host for c in " %/\\"):
        raise UnsafeSetting(f"{shown!r} has no valid host name")
    if parsed.port is not None and not 0 < parsed.port < 65536:
        raise UnsafeSetting(f"{shown!r} has port {parsed.port}; a port is between 1 and 65535")
    return parsed


def check_token(token: str) -> None:
    """:class:`UnsafeSetting` when ``token`` cannot be sent as ``Authorization: Bearer ...``."""
    if not token:
        raise UnsafeSetting("the access token is empty")
    for index, char in enumerate(token):
        if not " " < char < "\x7f":
            what = (
                "a space or control character"
                if char.isspace() or ord(char) < 32
                else "a non-ASCII character"
            )
            raise UnsafeSetting(
                f"the access token contains {what} at position {index + 1} of {len(token)}, "
                "which cannot be sent in an HTTP header; copy the token again"
            )


def is_loopback(host: str) -> bool:
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def plain_http_warning(
    url: httpx.URL, *, has_token: bool, proxy: httpx.URL | None = None
) -> str | None:
    """A warning when the token would travel unencrypted to another machine: to the platform,
    or to the proxy in between. Over ``https://`` a proxy only relays an encrypted tunnel
    (``CONNECT``); over ``http://`` any proxy reads the request, token included, and sends it on
    in clear, so a loopback platform reached through a proxy elsewhere is not loopback any more.
    """
    if not has_token or url.scheme != "http":
        return None
    if proxy is None:
        if is_loopback(url.host):
            return None
        return (
            f"the access token is sent over plain http:// to {url.host}, unencrypted: anyone on "
            "the network path can read it. Use an https:// base URL for a platform on another "
            "machine."
        )
    if is_loopback(url.host):
        if is_loopback(proxy.host):
            return None
        fix = f"Add {url.host} to NO_PROXY so that it is reached directly."
    else:
        fix = "Use an https:// base URL for a platform on another machine."
    return (
        f"the access token is sent over plain http:// through the proxy {proxy.host} to "
        f"{url.host}, unencrypted: the proxy and anyone on the network path can read it. {fix}"
    )


def ssl_verify(ca_bundle: str | None, ca_folder: str | None = None) -> ssl.SSLContext | bool:
    """What httpx should verify TLS with: its default CAs, those of a CA bundle file, or those
    of a folder of hashed certificates (``SSL_CERT_DIR``)."""
    if ca_folder:
        if not os.path.isdir(ca_folder):
            raise UnsafeSetting(f"the CA folder {ca_folder} is not a readable folder")
        return ssl.create_default_context(capath=ca_folder)
    if not ca_bundle:
        return True
    try:
        info = os.stat(ca_bundle)
    except OSError as error:
        raise UnsafeSetting(
            f"the CA bundle {ca_bundle} cannot be read ({error.strerror})"
        ) from None
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_CA_BUNDLE_BYTES:
        raise UnsafeSetting(f"the CA bundle {ca_bundle} is not a regular file of at most 10 MiB")
    try:
        return ssl.create_default_context(cafile=ca_bundle)
    except (OSError, ssl.SSLError, ValueError) as error:
        raise UnsafeSetting(f"the CA bundle {ca_bundle} cannot be used ({error})") from None


def display_url(url: str) -> str:
    """``url`` with its user info (``user:password@``) hidden."""
    return _USERINFO.sub(r"\1***@", url)


def secret_forms(secret: str) -> list[str]:
    """The spellings of ``secret`` a message may contain, longest first."""
    forms = {
        secret,
        secret.strip(),
        repr(secret)[1:-1],
        json.dumps(secret)[1:-1],
        quote(secret, safe=""),
        quote_plus(secret),
        secret.encode("unicode_escape").decode("ascii", "replace"),
    }
    return sorted((f for f in forms if len(f) >= 4), key=len, reverse=True)


def redact(text: str, secret: str | None, replacement: str = "***") -> str:
    """``text`` without any form of ``secret`` (see the module docstring), and with the user
    info of every URL hidden."""
    text = display_url(text)
    if not secret or len(secret.strip()) < 4:
        return text
    for form in secret_forms(secret):
        text = _drop_form(text, form, replacement)
    return text


def _drop_form(text: str, form: str, replacement: str) -> str:
    """Remove ``form`` and (when it is long enough) every prefix of it of ``MIN_PREFIX`` or
    more characters, ignoring case."""
    lowered, needle = text.lower(), form.lower()
    if len(lowered) != len(text):  # a case mapping changed the length: match exactly instead
        lowered, needle = text, form
    head = needle[:MIN_PREFIX] if len(needle) >= MIN_PREFIX else needle
    out: list[str] = []
    position = 0
    while (start := lowered.find(head, position)) >= 0:
        end = start + len(head)
        while end < len(text) and end - start < len(needle) and lowered[end] == needle[end - start]:
            end += 1
        out.append(text[position:start] + replacement)
        position = end
    out.append(text[position:])
    return "".join(out)
