"""The SSRF guard: a pre-check without network, and a network backend that checks again at
connect time and pins the connection to the address it checked."""

from sift_fetch.guard.addresses import IPAddress, IPNetwork, Policy, denied_reason
from sift_fetch.guard.backend import Connector, GuardedBackend
from sift_fetch.guard.precheck import CheckedURL, precheck
from sift_fetch.guard.resolve import Resolver, system_resolver
from sift_fetch.guard.stream import tcp_connector
from sift_fetch.guard.transport import GuardedTransport

__all__ = [
    "CheckedURL",
    "Connector",
    "GuardedBackend",
    "GuardedTransport",
    "IPAddress",
    "IPNetwork",
    "Policy",
    "Resolver",
    "denied_reason",
    "precheck",
    "system_resolver",
    "tcp_connector",
]
