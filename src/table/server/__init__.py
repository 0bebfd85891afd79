"""The web server: HTTP and WebSocket play, rooms and storage (``table serve``)."""
