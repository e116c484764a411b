"""From abstract values to the SDK's view: a ``GymRuntimeConfig``'s arguments checked against
our pydantic mirror, a ``target=`` classified, the ``GymRunnerTarget`` JSON derived."""
