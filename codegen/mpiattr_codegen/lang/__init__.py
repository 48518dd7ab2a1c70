"""One module per output family: each lists its outputs and registers its Jinja filters."""
