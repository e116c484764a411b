"""Everything evalsubmit knows about the NeMo Platform SDK: names and re-export paths, our
pydantic mirrors of its models, its reference grammars, the spec defaults it sends, and the
version all of this was verified against. Imports only :mod:`evalsubmit.core`."""
