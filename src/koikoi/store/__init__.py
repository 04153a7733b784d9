"""Durable storage for the server: accounts, sessions and games (SQLAlchemy 2).

SQLite in the user's data directory by default, PostgreSQL when
``KOIKOI_DATABASE_URL`` says so; the schema is kept by Alembic migrations.
"""
