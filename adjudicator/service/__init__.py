"""The judge service: the shell around the pure rules core that handles
mail, storage and time (intake, store, scheduler, outbox)."""
