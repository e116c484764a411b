from evaljobs.submit import run_all

run_all()
