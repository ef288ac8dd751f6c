"""Failure injection: a test arranges for the next requests on a route to fail (429 with
Retry-After, or 5xx) to prove the bot retries and recovers.

The HTTP dispatcher asks :meth:`FaultInjection._take_fault` before handling a request
and, when a fault is due, answers with :meth:`FaultInjection._fault` instead.
"""

from __future__ import annotations

from aiohttp import web

from tests.e2e.fake_discord.records import Fault, Recorded
from tests.e2e.fake_discord.state import FakeState
from tests.e2e.fake_discord.wire import json_response


class FaultInjection(FakeState):
    """Arranged faults, and the answers Discord gives for them."""

    def fail_next(
        self, method: str, route: str, *, status: int = 429, retry_after: float = 0.3, times: int = 1
    ) -> Fault:
        """Answer the next ``times`` requests matching ``method`` and ``route`` (template substring,
        e.g. ``"/interactions/{id}/{token}/callback"``) with ``status`` instead of handling them."""
        fault = Fault(method.upper(), route, status, retry_after, times)
        self.faults.append(fault)
        return fault

    def _take_fault(self, method: str, route: str) -> Fault | None:
        for fault in self.faults:
            if fault.remaining > 0 and fault.method == method and fault.route in route:
                fault.remaining -= 1
                return fault
        return None

    def _fault(self, rec: Recorded, fault: Fault) -> web.Response:
        """Discord's answer for ``fault``: a rate limit with its headers, or a server error."""
        if fault.status == 429:
            body = {
                "message": "You are being rate limited.",
                "retry_after": fault.retry_after,
                "global": False,
            }
            headers = {
                "Retry-After": f"{fault.retry_after}",
                "Via": "1.1 google",
                "X-RateLimit-Scope": "user",
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset-After": f"{fault.retry_after}",
                "X-RateLimit-Bucket": "fake-bucket",
            }
            return json_response(rec, body, 429, headers)
        return json_response(rec, {"message": "500: Internal Server Error", "code": 0}, fault.status)
