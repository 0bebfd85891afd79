"""Several server processes over PostgreSQL and Redis (docs/scaling.md).

``member`` (a process's part: heartbeat, its share of the partitions),
``routed`` (requests and sockets carried to a game's owner), ``settings``,
``partitions`` (game -> partition), ``ownership`` (PostgreSQL advisory locks)
and ``bus`` (Redis Streams of commands to a partition's owner).  Nothing is
imported here: Redis is an optional extra ("scale"), and ``partitions`` and
``ownership`` are used without it.
"""
