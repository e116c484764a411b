"""Entry point: the service class lives in service.py."""

from service import AgentService

service = AgentService("qa")
service.submit("gym", "qa/mcqa")
service.submit_all("qa/agents")
