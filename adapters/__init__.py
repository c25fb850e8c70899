"""The adapters: the chat platforms, the store, the catalogs, and the runner that connects a
platform to the chat application."""
