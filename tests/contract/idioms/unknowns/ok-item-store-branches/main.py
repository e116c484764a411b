"""Submits the agent suite and the row check of the support bot."""

from evalapp.jobs import build_request
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="support")
agent_job = client.evaluator.submit(**build_request("agent", "support/smoke#v3"))
row_job = client.evaluator.submit(**build_request("rows"))
print(agent_job, row_job)
