"""The abstract value domain of the interpreter, its name environments and iteration."""
