import pytest
from nemo_platform import NeMoPlatform


@pytest.fixture
def client():
    return NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
