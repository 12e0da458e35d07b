"""The only code that touches hardware. Each device has a real and a file-based implementation."""
