"""Entry point: submits every concrete job."""

from nemo_platform import NeMoPlatform

from jobs.nightly import NightlyJob, SmokeJob

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for job in (NightlyJob(), SmokeJob()):
    job.submit(client)
