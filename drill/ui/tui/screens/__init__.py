"""One screen per module; screens coordinate, widgets post messages up."""
