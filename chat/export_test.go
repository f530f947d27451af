package chat

import "context"

// CheckPendingItems is checkPendingItems for the external tests.
func CheckPendingItems(s *Service) error { return checkPendingItems(context.Background(), s) }
