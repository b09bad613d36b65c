"""Public tables: Play now's waiting list, and the free timed rooms of 2 or 4 it seats strangers at."""
