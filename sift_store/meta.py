"""The one MetaData every table module of the store registers its tables on."""

from sqlalchemy import MetaData

metadata = MetaData()
