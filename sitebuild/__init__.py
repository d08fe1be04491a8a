"""The site builder behind build.py: gather data, render pages, write site/ atomically."""
