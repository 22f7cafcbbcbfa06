"""What a person sees: the PySide6 + pyqtgraph desktop app."""
